# Installs a built f2lay tree into a fresh prefix, then configures, builds and
# runs examples/cpp_consumer against that prefix alone (ctest cpp_package).
# Run as: cmake -DSOURCE_DIR= -DBINARY_DIR= -DCONSUMER_DIR= -DWORK_DIR= -DGENERATOR=
#   -DMAKE_PROGRAM= -DCXX_COMPILER= [-DCONFIG=] -P package_test.cmake
set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()

# Every component, as a plain `cmake --install` does.
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix} ${config_args}
                COMMAND_ERROR_IS_FATAL ANY)

# The installed CMake files locate everything from their own place: no path
# into the source or build tree (the prefix lies in the latter) may appear.
file(GLOB_RECURSE package_files ${prefix}/*.cmake)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(tree ${SOURCE_DIR} ${BINARY_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names a path in ${tree}")
    endif()
  endforeach()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${build} -G ${GENERATOR}
                        -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                        -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_PREFIX_PATH=${prefix}
                COMMAND_ERROR_IS_FATAL ANY)
# The package found must be the one just installed, not another on the system.
file(STRINGS ${build}/CMakeCache.txt found REGEX "^f2lay_DIR:")
string(FIND "${found}" "f2lay_DIR:PATH=${prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "the consumer found another f2lay: ${found}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} ${config_args}
                COMMAND_ERROR_IS_FATAL ANY)
find_program(figure1 figure1 PATHS ${build} ${build}/${CONFIG} NO_DEFAULT_PATH REQUIRED)
execute_process(COMMAND ${figure1} COMMAND_ERROR_IS_FATAL ANY)

# The command is installed too, and runs.
execute_process(COMMAND ${prefix}/bin/f2lay --help OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "the installed package builds and runs examples/cpp_consumer")
