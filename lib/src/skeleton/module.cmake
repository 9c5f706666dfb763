target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/suggest_bones.cpp
  ${CMAKE_CURRENT_LIST_DIR}/medial_axis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/axis_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/limbs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/drop_shadow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_skeleton.cpp)
