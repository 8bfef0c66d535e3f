# The layers test (cmake -P): every source of every room includes only the
# public headers of the rooms cmake/rooms.cmake lets it use, and only their
# private headers by relative path ("../util/pool.h"); every public header
# belongs to exactly one room; every folder of src/ is a room or the cli;
# and the build's per-room header folders refuse what they should: a render
# source that includes murmur/metrics.h (core) compiles, one that includes
# murmur/scene.h does not.
#   cmake -DSRC=<source tree> -DBIN=<build tree> -DCC=<C compiler> -P layers.cmake
cmake_minimum_required(VERSION 3.20)
include(${SRC}/cmake/rooms.cmake)
set(failures 0)
macro(fail msg)
  message(SEND_ERROR "${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

# each public header has one owner
file(GLOB public RELATIVE ${SRC}/include/murmur ${SRC}/include/murmur/*.h)
foreach(h ${public})
  string(REGEX REPLACE "\\.h$" "" h ${h})
  if(h STREQUAL "murmur")
    continue()   # the umbrella header: for users and the cli
  endif()
  set(owners)
  foreach(room ${MURMUR_ROOMS})
    if(h IN_LIST MURMUR_ROOM_${room}_HEADERS)
      list(APPEND owners ${room})
    endif()
  endforeach()
  list(LENGTH owners n)
  if(NOT n EQUAL 1)
    fail("include/murmur/${h}.h belongs to ${n} rooms (${owners}); give it one in cmake/rooms.cmake")
  endif()
endforeach()

# every folder of src/ is a room
file(GLOB folders RELATIVE ${SRC}/src ${SRC}/src/*)
foreach(f ${folders})
  if(IS_DIRECTORY ${SRC}/src/${f} AND NOT f STREQUAL "cli" AND NOT f IN_LIST MURMUR_ROOMS)
    fail("src/${f}/ is not a room of cmake/rooms.cmake")
  endif()
endforeach()

# every include of every room's sources
foreach(room ${MURMUR_ROOMS})
  murmur_room_headers(${room} seen)
  file(GLOB sources ${SRC}/src/${room}/*.c ${SRC}/src/${room}/*.h)
  foreach(src ${sources})
    file(STRINGS ${src} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
      file(RELATIVE_PATH shown ${SRC} ${src})
      if(inc MATCHES "^murmur/([a-z0-9_]+)\\.h$")
        set(h ${CMAKE_MATCH_1})
        if(NOT h IN_LIST seen)
          fail("${shown} includes murmur/${h}.h, which the ${room} room may not see (cmake/rooms.cmake)")
        endif()
      elseif(inc MATCHES "^\\.\\./([a-z]+)/")
        set(other ${CMAKE_MATCH_1})
        if(NOT other IN_LIST MURMUR_ROOM_${room}_USES AND NOT other STREQUAL room)
          fail("${shown} includes ${inc}, a private header of ${other}, which ${room} does not use")
        endif()
      elseif(inc MATCHES "/")
        fail("${shown} includes \"${inc}\": a room includes its own headers, murmur/ ones, or ../ROOM/ ones")
      endif()
    endforeach()
  endforeach()
endforeach()

# the compiler refuses a forbidden include through a room's header folder
set(dir ${BIN}/layers-test)
file(MAKE_DIRECTORY ${dir})
file(WRITE ${dir}/allowed.c "#include \"murmur/metrics.h\"\nint layers_allowed;\n")
file(WRITE ${dir}/forbidden.c "#include \"murmur/scene.h\"\nint layers_forbidden;\n")
execute_process(COMMAND ${CC} -fsyntax-only -I${BIN}/rooms/render ${dir}/allowed.c
                RESULT_VARIABLE allowed_rc OUTPUT_QUIET ERROR_QUIET)
execute_process(COMMAND ${CC} -fsyntax-only -I${BIN}/rooms/render ${dir}/forbidden.c
                RESULT_VARIABLE forbidden_rc OUTPUT_QUIET ERROR_VARIABLE forbidden_err)
if(NOT allowed_rc EQUAL 0)
  fail("a render source including murmur/metrics.h does not compile through ${BIN}/rooms/render")
endif()
if(forbidden_rc EQUAL 0 OR NOT forbidden_err MATCHES "murmur/scene.h")
  fail("a render source including murmur/scene.h compiles: the rooms' header folders do not enforce the layers")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} layering violation(s)")
endif()
message(STATUS "layers: ${MURMUR_ROOMS} keep to cmake/rooms.cmake")
