target_sources(rig2d PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/canvas.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strokes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blit.cpp)
