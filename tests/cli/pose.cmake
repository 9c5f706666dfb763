# SPDX-License-Identifier: Apache-2.0
# rig2d-pose: exit codes and messages for each error, plus end-to-end output checks.
set(_pose $<TARGET_FILE:rig2d-pose>)
set(_pose_data ${CMAKE_CURRENT_LIST_DIR}/../data/pose)
set(_pose_rig ${_pose_data}/assets/rigs/bar.rig2d.json)
set(_pose_work ${CMAKE_CURRENT_BINARY_DIR}/pose-cli)
set(_pose_expect ${CMAKE_CURRENT_LIST_DIR}/pose_expect.sh)

# pose_case(<name> <exit code> <regex> <args...>)
function(pose_case name code regex)
  add_test(NAME "pose-cli: ${name}" COMMAND bash ${_pose_expect} ${code} "${regex}" ${_pose} ${ARGN})
endfunction()

file(MAKE_DIRECTORY ${_pose_work})
pose_case("help teaches the options" 0 "weights:BONE" --help)
pose_case("renders the bind pose" 0 "wrote .*bind.png" ${_pose_rig} -o ${_pose_work}/bind.png)
pose_case("nothing to write is a usage error" 2 "nothing to write" ${_pose_rig})
pose_case("an unknown bone lists the rig's bones" 2 "the rig's bones are: base, mid, tip \\[pose.bone\\]"
          ${_pose_rig} --pose elbow.rot=1 -o ${_pose_work}/x.png)
pose_case("an unknown pose field lists the fields" 2 "fields are x, y \\(px\\), rot" ${_pose_rig} --pose mid.angle=1
          -o ${_pose_work}/x.png)
pose_case("a bad pose syntax" 2 "pose.syntax" ${_pose_rig} --pose mid=1 -o ${_pose_work}/x.png)
pose_case("a pose file naming an unknown bone" 3 "badbone.pose.json:.*/bones/elbow: no bone named \"elbow\""
          ${_pose_rig} --pose-file ${_pose_data}/badbone.pose.json -o ${_pose_work}/x.png)
pose_case("a pose file bends the bar" 0 "wrote" ${_pose_rig} --pose-file ${_pose_data}/bend.pose.json --fit
          -o ${_pose_work}/bend.png)
pose_case("a bad clip names the key and line" 3 "bad.anim.json:[0-9]+:[0-9]+: error: /tracks/0/keys/0/t: .*\\[clip.key.time\\]"
          ${_pose_rig} --anim ${_pose_data}/assets/anims/bad.anim.json -o ${_pose_work}/x.png)
pose_case("an unbound track is a warning" 0 "base/elbow.*\\[anim.track.path\\]"
          ${_pose_rig} --anim ${_pose_data}/assets/anims/wave.anim.json --time 0.5 -o ${_pose_work}/wave.png)
pose_case("a missing texture falls back to the flat tint" 0 "flat tint \\[pose.sprite.unresolved\\]"
          ${_pose_data}/assets/rigs/missing.rig2d.json -o ${_pose_work}/missing.png)
pose_case("a zero size is refused" 2 "--size takes WxH" ${_pose_rig} --size 0x10 -o ${_pose_work}/x.png)
pose_case("a huge size is refused" 2 "\\[pose.size\\]" ${_pose_rig} --size 20000x20000 -o ${_pose_work}/x.png)
pose_case("a huge scale is refused" 2 "would be .* px.*\\[pose.size\\]" ${_pose_rig} --scale 1000 -o ${_pose_work}/x.png)
pose_case("an unknown overlay is refused" 2 "\\[pose.overlay\\]" ${_pose_rig} --overlay glow -o ${_pose_work}/x.png)
pose_case("weights of an unknown bone" 2 "\\[pose.bone\\]" ${_pose_rig} --overlay weights:arm -o ${_pose_work}/x.png)
pose_case("--time needs a clip" 2 "need a clip" ${_pose_rig} --time 0.5 -o ${_pose_work}/x.png)
pose_case("a bad --time value" 2 "--time takes numbers" ${_pose_rig} --anim ${_pose_data}/assets/anims/wave.anim.json
          --time 0.5,soon -o ${_pose_work}/x.png)
pose_case("a missing rig" 3 "\\[io.not_found\\]" ${_pose_data}/nope.rig2d.json -o ${_pose_work}/x.png)
pose_case("a bad background colour" 2 "not a colour" ${_pose_rig} --background pink -o ${_pose_work}/x.png)
# (missing folders are created, so the output goes below a file, where no folder can be made)
pose_case("an unwritable output" 4 "\\[io.write\\]" ${_pose_rig} -o ${_pose_rig}/sub/x.png)
pose_case("a missing --assets folder" 3 "asset" ${_pose_rig} --assets ${_pose_data}/nowhere -o ${_pose_work}/x.png)
add_test(NAME "pose-cli: outputs, determinism, no partial files"
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pose_outputs.sh ${_pose} ${_pose_data} ${_pose_work}/outputs)
pose_case("repeated options may precede the rig" 0 "wrote .*order_0002.png" --anim ${_pose_data}/assets/anims/wave.anim.json
          --time 0.5 --time 0.25,0.75 --pose tip.rot=1 ${_pose_rig} -o ${_pose_work}/order.png)
add_test(NAME "pose-cli: --depfile and --list-inputs name every file read"
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pose_build.sh ${_pose} ${_pose_data})
set_tests_properties("pose-cli: --depfile and --list-inputs name every file read" PROPERTIES
                     PASS_REGULAR_EXPRESSION "PASS: pose build" FAIL_REGULAR_EXPRESSION "FAIL: ")
add_test(NAME "pose-cli: 2.5D views and legends render deterministically"
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pose_views.sh ${_pose} ${_pose_data} ${_pose_work}/views)
set_tests_properties("pose-cli: 2.5D views and legends render deterministically" PROPERTIES
                     PASS_REGULAR_EXPRESSION "PASS: pose views" FAIL_REGULAR_EXPRESSION "FAIL: ")
pose_case("a camera pitch past 90 degrees is refused" 2 "\\[pose.view\\]" ${_pose_rig} --view billboard
          --camera-pitch 100 -o ${_pose_work}/x.png)
pose_case("an unknown view is refused" 2 "--view" ${_pose_rig} --view sideways -o ${_pose_work}/x.png)
pose_case("several rigs need --contact-sheet" 2 "\\[pose.input\\]" ${_pose_rig} ${_pose_rig} -o ${_pose_work}/x.png)
pose_case("a contact sheet of a folder" 0 "wrote .*sheet-all.png \\(3 rigs\\)" ${_pose_data}/assets/rigs
          --contact-sheet ${_pose_work}/sheet-all.png)
pose_case("a contact sheet of a missing folder" 3 "\\[io.not_found\\]" ${_pose_data}/nowhere
          --contact-sheet ${_pose_work}/x.png)
pose_case("an absurd --ppu is refused" 2 "--ppu must be" ${_pose_rig} --view billboard --ppu 1e-300 -o ${_pose_work}/x.png)
pose_case("a huge --ppu still frames the rig" 0 "wrote" ${_pose_rig} --view ground --ppu 1e6 -o ${_pose_work}/ppu.png)
pose_case("--rom renders a labelled range-of-motion sheet and keeps its clip" 0 "wrote 2 files"
          ${_pose_rig} --rom --rom-angle 30 --fit --overlay bones,folds --sheet ${_pose_work}/rom.png
          --save-clip ${_pose_work}/rom.anim.json)
pose_case("the kept range-of-motion clip plays with --anim" 0 "wrote .*rom-replay.png" ${_pose_rig}
          --anim ${_pose_work}/rom.anim.json --time 0.25 -o ${_pose_work}/rom-replay.png)
set_tests_properties("pose-cli: the kept range-of-motion clip plays with --anim" PROPERTIES
                     DEPENDS "pose-cli: --rom renders a labelled range-of-motion sheet and keeps its clip")
pose_case("--rom with --anim is refused" 2 "not both \\[pose.rom\\]" ${_pose_rig} --rom
          --anim ${_pose_data}/assets/anims/wave.anim.json -o ${_pose_work}/x.png)
pose_case("--rom-bones naming no bone lists the bones" 2 "the rig's bones are: base, mid, tip \\[pose.bone\\]"
          ${_pose_rig} --rom --rom-bones mid,elbow -o ${_pose_work}/x.png)
pose_case("--rom-angle needs --rom" 2 "requires --rom" ${_pose_rig} --rom-angle 30 -o ${_pose_work}/x.png)
pose_case("--save-clip needs --rom" 2 "add --rom \\[pose.rom\\]" ${_pose_rig} --save-clip ${_pose_work}/x.anim.json)
pose_case("a --rom-angle past 180 is refused" 2 "\\(0, 180\\] degrees \\[pose.rom\\]" ${_pose_rig} --rom
          --rom-angle 200 -o ${_pose_work}/x.png)
pose_case("--rom on a rig without bones names the rig" 3 "parts-empty-bare.rig2d.json: error: the rig has no bones to swing \\[pose.rom.none\\]"
          ${CMAKE_CURRENT_LIST_DIR}/../data/schema/parts-empty-bare.rig2d.json --rom --sheet ${_pose_work}/x.png)
pose_case("--onion draws earlier frames of a clip" 0 "wrote .*onion.png" ${_pose_rig}
          --anim ${_pose_data}/assets/anims/wave.anim.json --fps 8 --onion 3 --fit --sheet ${_pose_work}/onion.png)
pose_case("--onion needs a clip" 2 "add --anim CLIP or --rom \\[pose.onion\\]" ${_pose_rig} --onion 2 -o ${_pose_work}/x.png)
pose_case("--onion is bounded" 2 "--onion" ${_pose_rig} --rom --onion 31 -o ${_pose_work}/x.png)
pose_case("--onion on one sampled frame warns" 0 "\\[pose.onion.none\\]" ${_pose_rig} --rom --time 0.5 --onion 2
          -o ${_pose_work}/onion-one.png)
pose_case("--onion is not for contact sheets" 2 "\\[pose.onion\\]" ${_pose_data}/assets/rigs --onion 2
          --contact-sheet ${_pose_work}/x.png)

# The review page (rig2d-pose --html, rig2d-validate --format html); its behaviour in a browser is
# tests/browser/review_page_test.py.
pose_case("a review page of a folder" 0 "wrote .*review.html \\(3 rigs, 0 failed to load" ${_pose_data}/assets/rigs
          --anim ${_pose_data}/assets/anims/wave.anim.json --html ${_pose_work}/review.html)
pose_case("a review page is its own output" 2 "--html is its own output.*\\[pose.output\\]" ${_pose_rig}
          --html ${_pose_work}/x.html -o ${_pose_work}/x.png)
pose_case("a review page takes its pose from its address" 2 "review.html#rig=NAME.*\\[pose.review\\]" ${_pose_rig}
          --pose mid.rot=1 --html ${_pose_work}/x.html)
pose_case("a review page with a bad clip names the key" 3 "bad.anim.json:[0-9]+:[0-9]+: error: .*\\[clip.key.time\\]"
          ${_pose_rig} --anim ${_pose_data}/assets/anims/bad.anim.json --html ${_pose_work}/x.html)
pose_case("an unknown --html-assets mode" 2 "--html-assets" ${_pose_rig} --html ${_pose_work}/x.html --html-assets inline)
pose_case("a review page may not overwrite its rig" 2 "\\[io.output.is_input\\]" ${_pose_rig} --html ${_pose_rig})
# (the page is written, lists the three files and embeds the rigs' texture)
add_test(NAME "validate-cli: --format html writes the review page"
         COMMAND bash -c "\"$0\" \"$@\" && grep -q 'id=\"rig2d-vertices\"' ${_pose_work}/validate.html && grep -q 'bar.png.meta.json' ${_pose_work}/validate.html && grep -q 'data:image/png;base64' ${_pose_work}/validate.html && echo 'PASS: validate html'"
                 $<TARGET_FILE:rig2d-validate> ${_pose_data}/assets/rigs/bar.rig2d.json
                 ${_pose_data}/assets/rigs/atlas.rig2d.json ${_pose_data}/assets/textures/bar.png.meta.json
                 --format html -o ${_pose_work}/validate.html --no-config)
set_tests_properties("validate-cli: --format html writes the review page" PROPERTIES
                     PASS_REGULAR_EXPRESSION "PASS: validate html")

# --contact-clip: a clip's frames on every rig of a contact sheet.
pose_case("--contact-clip adds frames to the contact sheet" 0 "wrote .*clip-sheet.png \\(1 rigs\\)"
          ${_pose_rig} --contact-sheet ${_pose_work}/clip-sheet.png --contact-clip humanoid/walk --contact-frames 3
          --tile 64)
pose_case("--contact-clip warns about tracks a rig cannot take" 0 "bar.rig2d.json: .*hips.*\\[anim.track.path\\]"
          ${_pose_rig} --contact-sheet ${_pose_work}/clip-sheet2.png --contact-clip humanoid/walk --tile 64)
pose_case("--contact-clip without --contact-sheet" 2 "--contact-clip adds a clip's frames to --contact-sheet"
          ${_pose_rig} --contact-clip humanoid/walk -o ${_pose_work}/x.png)
pose_case("--contact-clip names an unknown bundled clip" 2 "anim.clip.unknown"
          ${_pose_rig} --contact-sheet ${_pose_work}/x.png --contact-clip humanoid/moonwalk)
pose_case("--contact-frames is 1..8" 2 "contact-frames"
          ${_pose_rig} --contact-sheet ${_pose_work}/x.png --contact-clip humanoid/walk --contact-frames 9)
