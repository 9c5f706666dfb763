target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adler32.cpp
  ${CMAKE_CURRENT_LIST_DIR}/png.cpp
  ${CMAKE_CURRENT_LIST_DIR}/coverage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_components.cpp)
