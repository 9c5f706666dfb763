rig2d_add_test(test_conformance ${CMAKE_CURRENT_LIST_DIR}/test_png_suite.cpp ${CMAKE_CURRENT_LIST_DIR}/test_fault_safe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_truncation.cpp)
