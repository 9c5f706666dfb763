rig2d_add_test(test_layered ${CMAKE_CURRENT_LIST_DIR}/test_layered_fixtures.cpp ${CMAKE_CURRENT_LIST_DIR}/test_layered_readers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_layered_parts.cpp)
