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
