rig2d_add_test(test_coverage ${CMAKE_CURRENT_LIST_DIR}/test_coverage.cpp)
rig2d_add_test(test_png ${CMAKE_CURRENT_LIST_DIR}/test_png.cpp)
rig2d_add_test(test_alpha_runs ${CMAKE_CURRENT_LIST_DIR}/test_alpha_runs.cpp)
