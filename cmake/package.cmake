# The installed CMake package: the libraries as f2lay::formats, f2lay::ref
# (with f2lay::model and f2lay::simulators, which it links) and f2lay::opt
# (each folder installs its own headers; reference/ installs analysis/), found by
# find_package(f2lay CONFIG). Every rule is in component cpp, so that a build
# installing another component (the Python wheel's "python") leaves them out.
include(CMakePackageConfigHelpers)

# The same names for a project that adds f2lay with add_subdirectory.
foreach(name formats model simulators ref opt oracle audit)
  add_library(f2lay::${name} ALIAS f2lay_${name})
endforeach()

set(F2LAY_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/f2lay)

install(TARGETS f2lay_formats f2lay_model f2lay_simulators f2lay_ref f2lay_opt EXPORT f2layTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cpp)
install(EXPORT f2layTargets NAMESPACE f2lay:: DESTINATION ${F2LAY_INSTALL_CMAKEDIR}
        COMPONENT cpp)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/f2layConfig.cmake.in
  ${PROJECT_BINARY_DIR}/f2layConfig.cmake
  INSTALL_DESTINATION ${F2LAY_INSTALL_CMAKEDIR})
# A request for f2lay X.Y is met by any X.Z with Z >= Y.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/f2layConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/f2layConfig.cmake ${PROJECT_BINARY_DIR}/f2layConfigVersion.cmake
        DESTINATION ${F2LAY_INSTALL_CMAKEDIR} COMPONENT cpp)
