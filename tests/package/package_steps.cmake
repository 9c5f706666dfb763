# SPDX-License-Identifier: Apache-2.0
# Shared by the cmake -P scripts of tests/package: their -D arguments, and running one step.

# require_vars(<script> <var>...): stops with a message naming each -D<var>=... that was not given.
function(require_vars script)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script} needs -D${var}=...")
    endif()
  endforeach()
endfunction()

# run(<step> <command...>): fails the test on a non-zero exit, with both outputs. Sets `stdout` and
# `out` (stdout then stderr) in the caller.
function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step} failed (${rc}):\n${stdout}\n${stderr}")
  endif()
  message(STATUS "${step}:\n${stdout}")
  set(stdout "${stdout}" PARENT_SCOPE)
  set(out "${stdout}${stderr}" PARENT_SCOPE)
endfunction()
