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
