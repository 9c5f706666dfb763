# SPDX-License-Identifier: Apache-2.0
# The review page (rig2d-pose --html) in a real headless Chromium: Debian's chromium package
# (scripts/install-deps.sh installs it), driven over the DevTools pipe by a stdlib-only script.
if(RIG2D_BUILD_TOOLS)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  find_program(RIG2D_CHROMIUM NAMES chromium chromium-browser DOC "Chromium for the review page tests")
  # Without a browser the test still runs and fails saying how to get one: it is never skipped.
  set(_chromium ${RIG2D_CHROMIUM})
  if(NOT _chromium)
    set(_chromium /usr/bin/chromium)
  endif()
  add_test(NAME "review-page: in headless Chromium"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/review_page_test.py $<TARGET_FILE:rig2d-pose>
                   ${_chromium} ${PROJECT_SOURCE_DIR}/tests/data ${CMAKE_CURRENT_BINARY_DIR}/review-page)
  set_tests_properties("review-page: in headless Chromium" PROPERTIES
                       PASS_REGULAR_EXPRESSION "PASS: review page in Chromium" FAIL_REGULAR_EXPRESSION "FAIL: "
                       TIMEOUT 300)
endif()
