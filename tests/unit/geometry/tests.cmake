rig2d_add_test(test_grid_mesh ${CMAKE_CURRENT_LIST_DIR}/test_grid_mesh.cpp)
