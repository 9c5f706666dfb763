target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/scene.cpp)
