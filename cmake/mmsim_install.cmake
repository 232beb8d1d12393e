# cmake --install, in one of two layouts (MMSIM_INSTALL_LAYOUT):
# - prefix: the mmsim command, libmmsim.so, the Python package and host library, the headers of
#   hw/ and sw/ and a CMake package, so that a C++ plugin (programs or address maps built outside
#   the tree: sw/program/plugin.hpp, sw/program/map_plugin.hpp with the AddressMap and
#   RowPermutation of hw/memory/address_map.hpp) finds it with find_package(mmsim) and links
#   mmsim::mmsim (docs/own_programs.md, docs/own_maps.md; examples/cpp is such a project).
# - wheel: what pip installs into a Python environment (setup.py asks for it): the package
#   folder mmsim/ holding its Python files, its native module, libmmsim and the host library,
#   and the command in bin/, which finds them by its run path (docs/installing-python.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(MMSIM_INSTALL_LAYOUT prefix CACHE STRING "What cmake --install writes: prefix or wheel")
set_property(CACHE MMSIM_INSTALL_LAYOUT PROPERTY STRINGS prefix wheel)

if(MMSIM_INSTALL_LAYOUT STREQUAL "wheel")
  if(NOT TARGET mmsim_python_module)
    message(FATAL_ERROR "MMSIM_INSTALL_LAYOUT=wheel needs the Python package (no sanitizers)")
  endif()
  # bin/ to the package, as the Python's installation schemes place them: a virtual
  # environment's or the user's (../lib/python3.11/site-packages), a system's (Debian:
  # ../lib/python3.11/dist-packages).
  execute_process(
    COMMAND ${MMSIM_PYTHON} -c [[
import os, sysconfig
found = [os.path.relpath(sysconfig.get_path("platlib", *s), sysconfig.get_path("scripts", *s))
         for s in ((), (f"{os.name}_user",))]
print(";".join(dict.fromkeys(found)), end="")]]
    OUTPUT_VARIABLE package_paths COMMAND_ERROR_IS_FATAL ANY)
  list(TRANSFORM package_paths PREPEND "$ORIGIN/")
  list(TRANSFORM package_paths APPEND "/mmsim")
  set_target_properties(mmsim PROPERTIES INSTALL_RPATH "${package_paths}")
  set_target_properties(mmsim_python_module PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS mmsim RUNTIME DESTINATION bin)
  # The library under its soname only: a wheel holds no symbolic links.
  install(TARGETS mmsim_core mmsim_python_host mmsim_python_module
          LIBRARY DESTINATION mmsim NAMELINK_SKIP)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/testbench/python/mmsim/
          DESTINATION mmsim FILES_MATCHING PATTERN "*.py")
  install(FILES ${PROJECT_BINARY_DIR}/python/mmsim/_built_for.py DESTINATION mmsim)
  return()
endif()

install(TARGETS mmsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS mmsim_core mmsim_systemc EXPORT mmsimTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET mmsim_python_module)
  install(TARGETS mmsim_python_host LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS mmsim_python_module LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/python/mmsim)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/testbench/python/mmsim/
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/python/mmsim FILES_MATCHING PATTERN "*.py")
  install(FILES ${PROJECT_BINARY_DIR}/python/mmsim/_built_for.py
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/python/mmsim)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/hw ${PROJECT_SOURCE_DIR}/sw
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mmsim FILES_MATCHING PATTERN "*.hpp")
set_target_properties(mmsim_core PROPERTIES EXPORT_NAME mmsim)
install(EXPORT mmsimTargets NAMESPACE mmsim:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmsim)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mmsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mmsimConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmsim)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mmsimConfigVersion.cmake
                                 COMPATIBILITY ExactVersion)
install(FILES ${PROJECT_BINARY_DIR}/mmsimConfig.cmake ${PROJECT_BINARY_DIR}/mmsimConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmsim)
