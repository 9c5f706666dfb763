target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/guid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sprite_meta.cpp
  ${CMAKE_CURRENT_LIST_DIR}/asset_index.cpp)
