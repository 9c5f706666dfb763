rig2d_add_test(test_anim
  ${CMAKE_CURRENT_LIST_DIR}/test_curve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_clip_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_range_of_motion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_rig_binding.cpp)
