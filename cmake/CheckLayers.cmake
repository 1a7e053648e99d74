# Fails when a file of one layer includes a header of a layer above it.
#   cmake -DSOURCE_DIR=<project> -DLAYERS=core,text,... -P CheckLayers.cmake
# LAYERS is the order from the bottom up (CMakeLists.txt, EVALCLI_LAYERS). A layer's files are
# src/<layer>/** and include/evalcli/<layer>/**; they may include "evalcli/<lower or own layer>/..."
# (public headers) and "<own layer>/..." (its internal headers, relative to src/): another layer's
# internal headers are not included, and a public header includes no internal one.
if(NOT SOURCE_DIR OR NOT LAYERS)
  message(FATAL_ERROR "CheckLayers.cmake needs -DSOURCE_DIR=... and -DLAYERS=...")
endif()
string(REPLACE "," ";" LAYERS "${LAYERS}")
string(REPLACE ";" "|" layer_alternatives "${LAYERS}")
set(violations "")
set(rank 0)
foreach(layer IN LISTS LAYERS)
  set(rank_${layer} ${rank})
  math(EXPR rank "${rank} + 1")
endforeach()
foreach(layer IN LISTS LAYERS)
  file(GLOB_RECURSE files "${SOURCE_DIR}/src/${layer}/*.cpp" "${SOURCE_DIR}/src/${layer}/*.hpp"
       "${SOURCE_DIR}/include/evalcli/${layer}/*.hpp")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(line IN LISTS includes)
      if(line MATCHES "include[ \t]*[\"<](evalcli/)?(${layer_alternatives})/")
        set(prefix "${CMAKE_MATCH_1}")  # "evalcli/" for a public header, "" for an internal one
        set(target ${CMAKE_MATCH_2})
        file(RELATIVE_PATH shown "${SOURCE_DIR}" "${file}")
        string(STRIP "${line}" line)
        if(rank_${target} GREATER rank_${layer})
          string(APPEND violations "  ${shown} (layer ${layer}): ${line} (layer ${target} is above)\n")
        elseif(prefix STREQUAL "" AND NOT target STREQUAL layer)
          string(APPEND violations "  ${shown} (layer ${layer}): ${line} (an internal header of layer ${target})\n")
        elseif(prefix STREQUAL "" AND shown MATCHES "^include/")
          string(APPEND violations "  ${shown} (public): ${line} (an internal header)\n")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
# The Python binding (python/src/) is the top layer, above cli: it may include every public
# header, and no internal one of any layer.
file(GLOB_RECURSE binding_files "${SOURCE_DIR}/python/src/*.cpp" "${SOURCE_DIR}/python/src/*.hpp")
foreach(file IN LISTS binding_files)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<](${layer_alternatives})/")
  file(RELATIVE_PATH shown "${SOURCE_DIR}" "${file}")
  foreach(line IN LISTS includes)
    string(STRIP "${line}" line)
    string(APPEND violations "  ${shown} (python binding): ${line} (an internal header)\n")
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "layering: a layer includes a header of a layer above it "
                      "(order, bottom up: ${LAYERS}; docs/architecture.md):\n${violations}")
endif()
message(STATUS "layering: ok (${LAYERS})")
