# SPDX-License-Identifier: Apache-2.0
# CLI conventions shared by the three tools (tests/cli/conventions_test.py): "-" for standard input,
# --color/NO_COLOR/TERM=dumb, output folders created, one info line per batch item.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(case stdin color progress output_dirs info_lines schema_key)
  add_test(NAME cli_conventions_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/conventions_test.py $<TARGET_FILE:rig2d-validate>
                   $<TARGET_FILE:rig2d-pose> $<TARGET_FILE:rig2d-autorig> ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/cli_conventions ${case})
  set_tests_properties(cli_conventions_${case} PROPERTIES TIMEOUT 300)
endforeach()
