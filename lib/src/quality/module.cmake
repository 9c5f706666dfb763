target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/triangle_measures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_raster.cpp
  ${CMAKE_CURRENT_LIST_DIR}/weight_measures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deform_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/part_alpha.cpp
  ${CMAKE_CURRENT_LIST_DIR}/clip_deform.cpp)
