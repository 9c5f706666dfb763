rig2d_add_test(test_core ${CMAKE_CURRENT_LIST_DIR}/test_affine.cpp ${CMAKE_CURRENT_LIST_DIR}/test_error.cpp ${CMAKE_CURRENT_LIST_DIR}/test_js_trig.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_memory_budget.cpp ${CMAKE_CURRENT_LIST_DIR}/test_sha256.cpp)
