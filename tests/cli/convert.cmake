# SPDX-License-Identifier: Apache-2.0
# rig2d-convert: exit codes and messages for each error, plus end-to-end conversions checked by
# rig2d-validate and rig2d-pose (tests/cli/convert_e2e.sh).
set(_convert $<TARGET_FILE:rig2d-convert>)
set(_convert_data ${CMAKE_CURRENT_LIST_DIR}/../data/convert)
set(_convert_work ${CMAKE_CURRENT_BINARY_DIR}/convert-cli)
set(_convert_expect ${CMAKE_CURRENT_LIST_DIR}/pose_expect.sh)
file(MAKE_DIRECTORY ${_convert_work})

# convert_case(<name> <exit code> <regex> <args...>)
function(convert_case name code regex)
  add_test(NAME "convert-cli: ${name}" COMMAND bash ${_convert_expect} ${code} "${regex}" ${_convert} ${ARGN})
endfunction()

convert_case("--version" 0 "^rig2d-convert [0-9]" --version)
convert_case("help names the formats" 0 "Spine skeleton JSON" --help)
convert_case("a missing input" 3 "\\[io.not_found\\]" ${_convert_data}/nope.json -o ${_convert_work}/x.rig2d.json)
convert_case("an unknown output kind" 2 "\\[convert.output.kind\\]" ${_convert_data}/spine/hero.json -o ${_convert_work}/x.txt)
convert_case("a bad --to" 2 "--to takes rig2d, spine or godot" ${_convert_data}/spine/hero.json -o ${_convert_work}/x --to maya)
convert_case("JSON that is not a Spine skeleton" 3 "not_spine.json: error: not a Spine skeleton.*\\[convert.input.kind\\]"
             ${_convert_data}/bad/not_spine.json -o ${_convert_work}/x.rig2d.json)
convert_case("an unknown parent bone names line, column and pointer" 3
             "unknown_parent.json:5:31: error: /bones/1/parent: parent \"shoulder\".*\\[spine.bone.parent\\]"
             ${_convert_data}/bad/unknown_parent.json -o ${_convert_work}/x.rig2d.json)
convert_case("a weighted vertex on a missing bone" 3 "bad_weights.json:[0-9]+:[0-9]+: error: /skins/0/attachments/s/m/vertices/6: .*\\[spine.attachment.vertices\\]"
             ${_convert_data}/bad/bad_weights.json -o ${_convert_work}/x.rig2d.json)
convert_case("a .tscn syntax error names line and column" 3 "broken.tscn:6:[0-9]+: error: .*\\[godot.syntax\\]"
             ${_convert_data}/bad/broken.tscn -o ${_convert_work}/x.rig2d.json)
convert_case("the output may not be the input" 2 "\\[io.output.is_input\\]"
             ${_convert_data}/spine/hero.json -o ${_convert_data}/spine/hero.json --to spine)
convert_case("--anim needs a rig input" 2 "\\[convert.anim\\]" ${_convert_data}/spine/hero.json -o ${_convert_work}/x.rig2d.json
             --anim ${_convert_data}/spine/hero.json)
convert_case("an unwritable output" 4 "\\[io.write\\]" ${_convert_data}/godot/hero.tscn -o ${_convert_data}/godot/hero.tscn/x.rig2d.json)
# An import writes the texture's sidecar beside the image, so it runs on a copy of the fixture.
file(REMOVE_RECURSE ${_convert_work}/made ${_convert_work}/godot)
file(COPY ${_convert_data}/godot DESTINATION ${_convert_work})
convert_case("a missing output folder is created" 0 "wrote .*made/sub/x.rig2d.json" ${_convert_work}/godot/hero.tscn -o ${_convert_work}/made/sub/x.rig2d.json)
convert_case("a .json that is not JSON names line and column" 3 "not_json.json:2:1: error: .*\\[json.syntax\\]"
             ${_convert_data}/bad/not_json.json -o ${_convert_work}/x.rig2d.json)
add_test(NAME "convert-cli: Spine and Godot in and out, validated and rendered"
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/convert_e2e.sh ${_convert} $<TARGET_FILE:rig2d-validate>
                 $<TARGET_FILE:rig2d-pose> ${_convert_data} ${_convert_work}/e2e)

# Godot scenes from the field (issue 40): stale bone paths, bad polygon indices, a non-GUID rig id.
set(_field ${_convert_data}/field)
convert_case("a stale bones[] path with zero weights is a warning" 0
             "stale_bone.tscn:25:[0-9]+: warning: bones\\[\\] names \"Hip/LeftArm\".*skipped \\(all its weights are 0\\) \\[godot.polygon.bone.missing\\]"
             ${_field}/stale_bone.tscn -o ${_convert_work}/field/stale.rig2d.json)
convert_case("a stale bones[] path that carried weight says so and renormalizes" 0
             "bones\\[\\] names \"gone\".*it carried weight.*\\[godot.polygon.bone.missing\\]"
             ${_field}/stale_weighted.tscn -o ${_convert_work}/field/stale_weighted.rig2d.json)
convert_case("a polygon index out of range is named as written" 3
             "index_range.tscn:24:[0-9]+: error: polygon index 9 is not a vertex \\(the polygon has 5\\) \\[godot.polygon.index\\]"
             ${_field}/index_range.tscn -o ${_convert_work}/field/x.rig2d.json)
convert_case("a polygon of two indices is a warning" 0 "two_indices.tscn:24:[0-9]+: warning: a polygon of 2 vertex indices has no triangle: skipped \\[convert.godot.polygon.degenerate\\]"
             ${_field}/two_indices.tscn -o ${_convert_work}/field/two.rig2d.json)
convert_case("internal_vertex_count leaving no outline is a warning" 0 "all_internal.tscn:[0-9]+:[0-9]+: warning: without polygons the outline is the first 0 vertices.*no triangle \\[convert.godot.polygon.degenerate\\]"
             ${_field}/all_internal.tscn -o ${_convert_work}/field/internal.rig2d.json)
convert_case("a metadata/rig2d_id that is not a GUID is not the rig's id" 0 "bad_id.tscn:5:[0-9]+: warning: metadata/rig2d_id \"not-a-guid\" is not a GUID.*\\[convert.godot.metadata\\]"
             ${_field}/bad_id.tscn -o ${_convert_work}/field/bad_id.rig2d.json)

# Motion onto a skeleton template (docs/convert.md): BVH to a clip, a Spine import's animations renamed.
convert_case("a BVH becomes a clip of the template's bones" 0
             "wrote .*legs.anim.json \\(4 tracks, 4 frames, front plane\\)"
             ${_convert_data}/bvh/legs.bvh --template humanoid -o ${_convert_work}/legs.anim.json)
convert_case("a BVH bone pointing at the viewer keeps its direction" 0
             "joint \"LeftUpLeg\" points out of the plane from frame 2 on.*\\[bvh.degenerate\\]"
             ${_convert_data}/bvh/legs.bvh --template humanoid -o ${_convert_work}/legs2.anim.json)
convert_case("a BVH with a bone map onto the side plane" 0 "wrote .*legs_side.anim.json \\(4 tracks, 4 frames, side plane\\)"
             ${_convert_data}/bvh/legs.bvh --template humanoid --bone-map ${_convert_data}/bvh/legs.bonemap.json
             --plane side -o ${_convert_work}/legs_side.anim.json)
convert_case("a BVH needs --template" 2 "needs --template.*\\[convert.template\\]"
             ${_convert_data}/bvh/legs.bvh -o ${_convert_work}/x.anim.json)
convert_case("a BVH becomes a clip file only" 2 "\\[convert.output.kind\\]"
             ${_convert_data}/bvh/legs.bvh --template humanoid -o ${_convert_work}/x.rig2d.json)
convert_case("a bone map naming no template bone" 3 "bad.bonemap.json:3:13: error: /bones/Hips: .*no bone \"hip\" \\[bonemap.bone\\]"
             ${_convert_data}/bvh/legs.bvh --template humanoid --bone-map ${_convert_data}/bad/bad.bonemap.json
             -o ${_convert_work}/x.anim.json)
# The Spine cases import a copy: an import writes the atlas page's sidecar beside it.
set(_spine_map_copy ${_convert_work}/spine_map)
foreach(case "translate tracks are not carried onto a template|the x track of \"hip\" is dropped.*\\[convert.map.field\\]"
             "animations onto the humanoid through a bone map|wrote .*mapped.wave.anim.json")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 what)
  list(GET parts 1 regex)
  add_test(NAME "convert-cli: Spine ${what}"
           COMMAND bash ${_convert_expect} 0 "${regex}" bash -c
                   "rm -rf \"$1\" && mkdir -p \"$1\" && cp \"$2\"/hero.* \"$1\"/ && exec \"$3\" \"$1\"/hero.json --template humanoid --bone-map \"$1\"/hero.bonemap.json -o \"$1\"/mapped.rig2d.json"
                   _ ${_spine_map_copy}/${what} ${_convert_data}/spine ${_convert})
endforeach()

# Spine constraints applied once to the setup pose (docs/convert.md): a note names the bones each moved.
convert_case("a Spine IK constraint is applied to the setup pose and noted" 0
             "ik_two_bone.json:14:[0-9]+: note: /ik/0: ik constraint \"reach\" is applied to the setup pose: it moved \"arm\" \\(turned -53.13 deg\\), \"fore\" \\(moved 26.83 px, turned 36.87 deg\\).*rig2d keeps no constraint.*\\[convert.spine.constraint.applied\\]"
             ${_convert_data}/constraints/ik_two_bone.json -o ${_convert_work}/constraints/ik.rig2d.json)
convert_case("a Spine constraint naming no bone is a located error" 3
             "bad_constraint.json:6:[0-9]+: error: /ik/0/target: target \"hand\" is not a bone \\[spine.constraint.bone\\]"
             ${_convert_data}/bad/bad_constraint.json -o ${_convert_work}/x.rig2d.json)

# Spine skins (docs/convert.md): --skin NAME in order over the default skin, --skin each, linked meshes,
# an unknown skin. tests/cli/convert_skins_test.py runs one case each on tests/data/convert/skins.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(case order each unknown each_fails_whole case_collision usage)
  add_test(NAME "convert-cli: skins ${case}"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/convert_skins_test.py ${PROJECT_BINARY_DIR}/tools
                   ${PROJECT_SOURCE_DIR} ${_convert_work}/skins ${case})
  set_tests_properties("convert-cli: skins ${case}" PROPERTIES FAIL_REGULAR_EXPRESSION "FAIL:")
endforeach()
