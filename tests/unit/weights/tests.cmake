rig2d_add_test(test_joint_weights ${CMAKE_CURRENT_LIST_DIR}/test_joint_weights.cpp)
