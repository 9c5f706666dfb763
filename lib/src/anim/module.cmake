target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/clip_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/curve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/range_of_motion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_binding.cpp)
