rig2d_add_test(test_autorig ${CMAKE_CURRENT_LIST_DIR}/test_autorig.cpp)
