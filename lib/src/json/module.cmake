target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/json_util.cpp ${CMAKE_CURRENT_LIST_DIR}/shortest_double.cpp)
