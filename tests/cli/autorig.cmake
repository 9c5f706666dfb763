# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig end-to-end scenarios (tests/cli/autorig.sh).
find_program(RIG2D_PYTHON3 python3)
foreach(scenario samples-reproduce deterministic single ids-and-meta bad-inputs unwritable dry-run bones usage weights)
  add_test(NAME cli_autorig_${scenario}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/autorig.sh $<TARGET_FILE:rig2d-autorig> ${PROJECT_SOURCE_DIR} ${scenario})
  set_tests_properties(cli_autorig_${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: ${scenario}"
                       FAIL_REGULAR_EXPRESSION "FAIL: ")
endforeach()

# --mesh outline (tests/cli/outline.sh): stage statistics, options, usage errors; posed with rig2d-pose.
if(TARGET rig2d-pose)
  foreach(scenario stats options usage)
    add_test(NAME cli_outline_${scenario}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/outline.sh $<TARGET_FILE:rig2d-autorig> $<TARGET_FILE:rig2d-pose>
                     ${PROJECT_SOURCE_DIR} ${scenario})
    set_tests_properties(cli_outline_${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: ${scenario}"
                         FAIL_REGULAR_EXPRESSION "FAIL: ")
  endforeach()
endif()

# rig2d-autorig as a build step (tests/cli/autorig_build.sh): digests, --check, depfiles, shards, layouts.
foreach(scenario content bones check depfile shard layout)
  add_test(NAME cli_autorig_build_${scenario}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/autorig_build.sh $<TARGET_FILE:rig2d-autorig> ${PROJECT_SOURCE_DIR}
                   ${scenario})
  set_tests_properties(cli_autorig_build_${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: ${scenario}"
                       FAIL_REGULAR_EXPRESSION "FAIL: ")
endforeach()

# --version on every tool: "<tool> <version>", exit 0, even where inputs are otherwise required.
foreach(tool rig2d-autorig rig2d-validate rig2d-pose)
  if(TARGET ${tool})
    add_test(NAME cli_version_${tool} COMMAND $<TARGET_FILE:${tool}> --version)
    set_tests_properties(cli_version_${tool} PROPERTIES PASS_REGULAR_EXPRESSION "^${tool} ${PROJECT_VERSION}\n$")
  endif()
endforeach()

# Sprite sheets and layouts (tests/cli/autorig_sheets.sh): slices, the sheet warning, --layout.
if(TARGET rig2d-validate)
  foreach(scenario slices sheet-warning slice-sheets layout)
    add_test(NAME cli_autorig_sheets_${scenario}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/autorig_sheets.sh $<TARGET_FILE:rig2d-autorig>
                     $<TARGET_FILE:rig2d-validate> ${PROJECT_SOURCE_DIR} ${scenario})
    set_tests_properties(cli_autorig_sheets_${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: ${scenario}"
                         FAIL_REGULAR_EXPRESSION "FAIL: ")
  endforeach()
endif()

# Layered documents (tests/cli/autorig_layered.sh): atlas and GUIDs, build plumbing, bad documents, convert.
if(TARGET rig2d-validate AND TARGET rig2d-convert)
  foreach(scenario atlas build bad convert)
    add_test(NAME cli_autorig_layered_${scenario}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/autorig_layered.sh $<TARGET_FILE:rig2d-autorig>
                     $<TARGET_FILE:rig2d-validate> $<TARGET_FILE:rig2d-convert> ${PROJECT_SOURCE_DIR} ${scenario})
    set_tests_properties(cli_autorig_layered_${scenario} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: ${scenario}"
                         FAIL_REGULAR_EXPRESSION "FAIL: ")
  endforeach()
endif()

# Per-sprite templates (tests/cli/autorig_templates_test.py): --template-map, the sidecar's
# rig2d.template, precedence, located errors, stamps, --check, --shard, --depfile, auto's reasons,
# --template-arms.
foreach(case map precedence errors stamps check_shard depfile layered clobber auto_why arms)
  add_test(NAME cli_autorig_templates_${case}
           COMMAND ${RIG2D_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/autorig_templates_test.py $<TARGET_FILE:rig2d-autorig>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_autorig_templates ${case})
  set_tests_properties(cli_autorig_templates_${case} PROPERTIES FAIL_REGULAR_EXPRESSION "FAIL: ")
endforeach()
