rig2d_add_test(test_joint_weights ${CMAKE_CURRENT_LIST_DIR}/test_joint_weights.cpp)
rig2d_add_test(test_heat ${CMAKE_CURRENT_LIST_DIR}/test_heat_weights.cpp ${CMAKE_CURRENT_LIST_DIR}/test_heat_parts.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_heat_chains.cpp ${CMAKE_CURRENT_LIST_DIR}/test_heat_over_body.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_symmetric_amd.cpp ${CMAKE_CURRENT_LIST_DIR}/test_heat_system.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_mesh_graph_lists.cpp ${CMAKE_CURRENT_LIST_DIR}/test_fold_relief.cpp)
