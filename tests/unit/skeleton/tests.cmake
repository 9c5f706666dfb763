rig2d_add_test(test_suggest_bones ${CMAKE_CURRENT_LIST_DIR}/test_suggest_bones.cpp)
