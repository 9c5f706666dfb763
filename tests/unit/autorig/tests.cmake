rig2d_add_test(test_autorig ${CMAKE_CURRENT_LIST_DIR}/test_autorig.cpp ${CMAKE_CURRENT_LIST_DIR}/test_autorig_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_autorig_file.cpp ${CMAKE_CURRENT_LIST_DIR}/test_mesh_detail.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_template_choice.cpp ${CMAKE_CURRENT_LIST_DIR}/test_template_clips.cpp)
rig2d_add_test(test_sheets ${CMAKE_CURRENT_LIST_DIR}/test_sheets.cpp ${CMAKE_CURRENT_LIST_DIR}/test_layout.cpp)
