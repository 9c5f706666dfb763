target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/document.cpp ${CMAKE_CURRENT_LIST_DIR}/psd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ora.cpp ${CMAKE_CURRENT_LIST_DIR}/zip.cpp ${CMAKE_CURRENT_LIST_DIR}/xml.cpp
  ${CMAKE_CURRENT_LIST_DIR}/document_parts.cpp ${CMAKE_CURRENT_LIST_DIR}/atlas_pack.cpp)
