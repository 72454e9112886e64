# A short run of every fuzz target (the apply_diff parsers, the history journal reader, the whole
# session) as one ctest test: scripts/fuzz builds them with clang 14, unoptimised (FUZZ_OPT=-O0:
# the build is most of the test's time) into build-fuzz-O0/, replays the kept regressions and
# fuzzes each for 3 s. Include it from tests/CMakeLists.txt: include(../fuzz/fuzz_smoke.cmake)
find_program(MCP_EDIT_FUZZ_CLANG NAMES clang++-14 clang++)
if(MCP_EDIT_FUZZ_CLANG)
  add_test(NAME fuzz_smoke
    COMMAND "${PROJECT_SOURCE_DIR}/scripts/fuzz" 3
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(fuzz_smoke PROPERTIES
    ENVIRONMENT "FUZZ_CXX=${MCP_EDIT_FUZZ_CLANG};FUZZ_OPT=-O0"
    TIMEOUT 900
    LABELS fuzz)
else()
  message(STATUS "clang++ not found: the fuzz_smoke test is not registered")
endif()
