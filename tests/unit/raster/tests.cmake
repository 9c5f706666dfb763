rig2d_add_test(test_raster ${CMAKE_CURRENT_LIST_DIR}/test_raster.cpp ${CMAKE_CURRENT_LIST_DIR}/test_font.cpp)
