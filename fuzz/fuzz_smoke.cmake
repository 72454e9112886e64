# A short run of every fuzz target (the apply_diff parsers, the history journal reader, the whole
# session) as one ctest test: scripts/fuzz builds them with clang 14, unoptimised (FUZZ_OPT=-O0:
# the build is most of the test's time) into build-fuzz-O0/, replays the kept regressions and
# fuzzes each for 3 s, failing a target that made fewer runs than its minimum. -O0 rather than -O1:
# -O1 took 1.4-2.0 times the compile time per file (apply_diff.cpp 6.0 -> 9.3 s, session.cpp 6.9 ->
# 10.2 s, fuzz_session.cpp 8.2 -> 16.6 s of CPU), and the build is most of this test's time; the
# runs -O0 makes in 3 s are far above the minimums (scripts/fuzz). Include it from
# tests/CMakeLists.txt: include(../fuzz/fuzz_smoke.cmake)
# Registered with or without clang: without it (or its libFuzzer runtime) scripts/fuzz installs
# nothing (FUZZ_NO_INSTALL=1), says "SKIPPED: <why>" and exits with 77, which ctest reports as skipped.
find_program(MCP_EDIT_FUZZ_CLANG NAMES clang++-14 clang++)
if(MCP_EDIT_FUZZ_CLANG)
  set(fuzz_smoke_cxx "${MCP_EDIT_FUZZ_CLANG}")
else()
  set(fuzz_smoke_cxx "clang++-14")
  message(STATUS "clang++ not found: the fuzz_smoke test will report itself skipped")
endif()
add_test(NAME fuzz_smoke
  COMMAND "${PROJECT_SOURCE_DIR}/scripts/fuzz" 3
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
set_tests_properties(fuzz_smoke PROPERTIES
  ENVIRONMENT "FUZZ_CXX=${fuzz_smoke_cxx};FUZZ_OPT=-O0;FUZZ_NO_INSTALL=1"
  SKIP_RETURN_CODE 77
  TIMEOUT 900
  LABELS fuzz)
