# SPDX-License-Identifier: Apache-2.0
# Output safety (issue 14): no tool ever writes over one of its inputs or writes one file twice, and a
# failed multi-file run changes nothing. tests/cli/output_safety_test.py runs one case each.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(case autorig validate pose pose_all_or_nothing fix errors outside memory)
  add_test(NAME cli_safety_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/output_safety_test.py ${PROJECT_BINARY_DIR}/tools
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_safety ${case})
endforeach()
# Files from the field (issue 40): device, FIFO and symlink outputs, reports over rigs, atlas and scene
# paths out of the asset root. tests/cli/hostile_files_test.py runs one case each.
foreach(case device_outputs stamp_links validate_own_files convert_paths convert_textures)
  add_test(NAME cli_hostile_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/hostile_files_test.py ${PROJECT_BINARY_DIR}/tools
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_hostile ${case})
endforeach()
# Files from the field (issue 40) that hung, wrote wrong output with exit 0 or read unclearly:
# tests/cli/field_inputs_test.py. A hang case's input runs minutes on the old code: the TIMEOUT is
# its check.
foreach(case glob_stars spine_keys sheet_slices contact_sheet_first layout_budget spine_overflow godot_overflow
             spine_export_overflow spine_weights spine_too_deep atlas_bounds layout_empty_name depfile_escapes
             list_inputs_null atlas_names spine_pages write_leftovers sheet_orphans)
  add_test(NAME cli_field_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/field_inputs_test.py ${PROJECT_BINARY_DIR}/tools
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_field ${case})
  set_tests_properties(cli_field_${case} PROPERTIES TIMEOUT 60 FAIL_REGULAR_EXPRESSION "FAIL:")
endforeach()
