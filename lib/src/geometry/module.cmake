target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/grid_mesh.cpp)
# Outline meshing: robust predicates, constrained Delaunay triangulation and refinement.
target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/predicates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cdt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangulate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contour.cpp
  ${CMAKE_CURRENT_LIST_DIR}/simplify.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bend_points.cpp
  ${CMAKE_CURRENT_LIST_DIR}/island_hulls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/outline_mesh.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh_coverage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hull_yardstick.cpp)
