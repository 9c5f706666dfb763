rig2d_add_test(test_scene ${CMAKE_CURRENT_LIST_DIR}/test_scene.cpp)
