rig2d_add_test(test_rig
  ${CMAKE_CURRENT_LIST_DIR}/test_js_values.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_normalize.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_write.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_rig_doc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_strict.cpp)
