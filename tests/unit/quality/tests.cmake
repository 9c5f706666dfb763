rig2d_add_test(test_deform_check ${CMAKE_CURRENT_LIST_DIR}/test_deform_measures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_deform_two_leg.cpp ${CMAKE_CURRENT_LIST_DIR}/test_leak_search.cpp)
