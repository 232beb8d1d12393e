# cmake --install: the mmsim command, libmmsim.so, the Python package and host library, the
# headers of hw/ and sw/ and a CMake package, so that a C++ plugin (a program built outside the
# tree, sw/program/plugin.hpp) finds it with find_package(mmsim) and links mmsim::mmsim
# (docs/own_programs.md; examples/cpp is such a project).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

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
