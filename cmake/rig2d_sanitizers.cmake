# RIG2D_SANITIZE="address;undefined" instruments every target of this build (library, tools, tests).
if(RIG2D_SANITIZE)
  string(REPLACE ";" "," _rig2d_san "${RIG2D_SANITIZE}")
  add_compile_options(-fsanitize=${_rig2d_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_rig2d_san})
endif()
