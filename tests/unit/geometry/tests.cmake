rig2d_add_test(test_grid_mesh ${CMAKE_CURRENT_LIST_DIR}/test_grid_mesh.cpp)
# Outline meshing (predicates, triangulation, contours, simplification, outline meshes).
rig2d_add_test(test_outline
  ${CMAKE_CURRENT_LIST_DIR}/test_predicates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_triangulate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_contour.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_contour_reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_simplify_reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_outline_mesh.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bend_points.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_island_hulls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_island_hulls_reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_yardstick.cpp)
