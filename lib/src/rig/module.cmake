target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/js_values.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_write.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_normalize.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_parse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_doc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_strict.cpp)
