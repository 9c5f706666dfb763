rig2d_add_test(test_interop
  ${CMAKE_CURRENT_LIST_DIR}/test_spine_import.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_spine_constraints.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_spine_skins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_godot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_validate_imported.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bvh_import.cpp)
