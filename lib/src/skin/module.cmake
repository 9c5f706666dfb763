target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/skeleton.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lbs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lbs_avx512.cpp)
