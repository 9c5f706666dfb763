# SPDX-License-Identifier: Apache-2.0
# `cpack` in a build folder: two Debian packages and one archive of the whole install.
#   rig2d      (component runtime): the tools, librig2d.so.N, man pages, bash/zsh completion, the
#              schemas and everything under share/rig2d/.
#   rig2d-dev  (component dev): headers, the librig2d.so link and the CMake package (find_package(rig2d)).
#   rig2d-<version>-Linux.tar.gz: every file of both, for an install in any prefix (the tools find the
#              library through their RUNPATH).
# Depends comes from dpkg-shlibdeps over the binaries; tests/package/deb_test.sh checks the package
# with lintian, installs it, runs the tools and removes it.

set(RIG2D_PACKAGE_CONTACT "rig2d maintainers <maintainers@rig2d.invalid>" CACHE STRING
    "Maintainer field of the Debian packages")

# Debian's /usr/share/doc/<package>/{copyright,changelog.gz} for both packages.
string(TIMESTAMP _rig2d_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH if set
set(_rig2d_pkgdoc ${PROJECT_BINARY_DIR}/package-doc)
file(WRITE ${_rig2d_pkgdoc}/copyright
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: rig2d\n\n"
  "Files: *\n"
  "Copyright: rig2d authors\n"
  "License: Apache-2.0\n"
  " On Debian systems, the full text of the Apache License 2.0 is in\n"
  " /usr/share/common-licenses/Apache-2.0.\n")
file(WRITE ${_rig2d_pkgdoc}/changelog
  "rig2d (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
  "  * rig2d ${PROJECT_VERSION}.\n\n"
  " -- ${RIG2D_PACKAGE_CONTACT}  ${_rig2d_changelog_date}\n")
find_program(RIG2D_GZIP gzip REQUIRED)
execute_process(COMMAND ${RIG2D_GZIP} -9n -c ${_rig2d_pkgdoc}/changelog OUTPUT_FILE ${_rig2d_pkgdoc}/changelog.gz)
foreach(component runtime dev)
  set(package rig2d)
  if(component STREQUAL "dev")
    set(package rig2d-dev)
  endif()
  install(FILES ${_rig2d_pkgdoc}/copyright ${_rig2d_pkgdoc}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()

set(CPACK_PACKAGE_NAME rig2d)
set(CPACK_PACKAGE_VENDOR "rig2d")
set(CPACK_PACKAGE_CONTACT "${RIG2D_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description below starts with its own synopsis line; CPackDeb would put the summary
# above it unless the summary is CPack's default, so it is exactly that.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)  # one .tar.gz with everything
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # rig2d_0.1.0_amd64.deb, rig2d-dev_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME rig2d)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION graphics)
# librig2d's shlibs file, for packages that link it, and the ldconfig trigger that goes with it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
file(WRITE ${_rig2d_pkgdoc}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${_rig2d_pkgdoc}/triggers)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "2D sprite skinning rig toolchain
rig2d turns PNG sprites into skinned 2D rigs (.rig2d.json) that the engine
loads, and checks, previews and converts them:
 * rig2d-autorig: PNG sprites to rigs (outline mesh, shape skeleton, weights)
 * rig2d-validate: checks rigs, sidecars and scenes (text, JSON, JUnit, SARIF)
 * rig2d-pose: renders rigs posed or animated to PNG frames and contact sheets
 * rig2d-convert: Spine JSON and Godot 4 .tscn to and from .rig2d.json
This package has the tools, the shared library, man pages, shell completion,
the JSON schemas and the build-system integrations under /usr/share/rig2d.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME rig2d-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "rig2d (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEV_PACKAGE_ARCHITECTURE_DEPENDENT ON)
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "2D sprite skinning rig toolchain (development files)
Headers, the librig2d.so link and the CMake package of rig2d:
find_package(rig2d) gives rig2d::rig2d, the tools as imported executables
and rig2d_add_rigs() for asset builds.")

include(CPack)
