target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/skeleton.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lbs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lbs_avx512.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skin_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skin_plan_avx2.cpp)
