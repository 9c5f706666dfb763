target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/atlas.cpp
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/godot_anim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/godot_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/godot_import.cpp
  ${CMAKE_CURRENT_LIST_DIR}/godot_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interop_io.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_anim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_bones.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_constraints.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_import.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spine_skins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bvh.cpp
  ${CMAKE_CURRENT_LIST_DIR}/retarget.cpp)
