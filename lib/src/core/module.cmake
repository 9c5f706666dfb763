target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/affine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error.cpp
  ${CMAKE_CURRENT_LIST_DIR}/js_trig.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_budget.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp)
