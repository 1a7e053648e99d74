# EVALCLI_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer for every
# target (library, CLI, tests), and any report aborts the process, so a test
# run fails on the first finding (scripts/test-sanitizers.sh).
# EVALCLI_FUZZ=ON: libFuzzer targets under fuzz/ (needs clang; see fuzz/README.md).
option(EVALCLI_SANITIZE "Build with -fsanitize=address,undefined (fail on any report)" OFF)
option(EVALCLI_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

set(EVALCLI_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
                            -fno-omit-frame-pointer)

if(EVALCLI_SANITIZE OR EVALCLI_FUZZ)
  add_compile_options(${EVALCLI_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()

if(EVALCLI_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "EVALCLI_FUZZ=ON needs clang: configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Coverage instrumentation for everything; the fuzz targets add libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
