rig2d_add_test(test_json ${CMAKE_CURRENT_LIST_DIR}/test_json_util.cpp ${CMAKE_CURRENT_LIST_DIR}/test_locate.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_json_safety.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_shortest_double.cpp)
