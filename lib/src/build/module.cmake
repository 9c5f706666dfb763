target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/build_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stamp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/batch.cpp)
