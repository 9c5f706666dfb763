target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/joint_weights.cpp)
target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/mesh_graph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/geodesic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bone_segments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/influence_cut.cpp
  ${CMAKE_CURRENT_LIST_DIR}/over_body.cpp
  ${CMAKE_CURRENT_LIST_DIR}/leg_slit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heat_system.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heat_weights.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fold_relief.cpp)
