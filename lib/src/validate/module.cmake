target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/validate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/find_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/codes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sidecar_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scene_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/code_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fix.cpp)
