target_sources(rig2d PRIVATE ${CMAKE_CURRENT_LIST_DIR}/scene.cpp)
