rig2d_add_test(test_suggest_bones ${CMAKE_CURRENT_LIST_DIR}/test_suggest_bones.cpp)
rig2d_add_test(test_shape_skeleton ${CMAKE_CURRENT_LIST_DIR}/test_shape_skeleton.cpp)
rig2d_add_test(test_medial_reference ${CMAKE_CURRENT_LIST_DIR}/test_medial_reference.cpp)
rig2d_add_test(test_drop_shadow ${CMAKE_CURRENT_LIST_DIR}/test_drop_shadow.cpp)
