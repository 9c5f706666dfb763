add_test(NAME cli.fault.interrupted_batch
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/interrupt.sh $<TARGET_FILE:rig2d-autorig> ${PROJECT_SOURCE_DIR}/samples)
