# Warnings and sanitizers as INTERFACE targets, linked where wanted, never global flags.
add_library(mcp_edit_warnings INTERFACE)
target_compile_options(mcp_edit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough
  # g++ 12 reports false -Wrestrict positives inside std::string concatenation (GCC PR 105329).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>
  # A unity build (the cross-builds: scripts/test-windows, scripts/build-macos) includes each source
  # into one generated file, so g++ takes the classes a source defines for a header's and warns of
  # every member whose type is in that source's anonymous namespace (-Wsubobject-linkage).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:$<TARGET_PROPERTY:UNITY_BUILD>>>:-Wno-subobject-linkage>)

# MCP_EDIT_SANITIZE takes its documented values only: a misspelt one (address, tsan, yes, ...) must
# not quietly become AddressSanitizer or none.
string(TOUPPER "${MCP_EDIT_SANITIZE}" mcp_edit_sanitize_value)
if(mcp_edit_sanitize_value MATCHES "^(|OFF|0)$")
  set(MCP_EDIT_SANITIZE OFF)
elseif(mcp_edit_sanitize_value MATCHES "^(ON|1)$")
  set(MCP_EDIT_SANITIZE ON)
elseif(NOT MCP_EDIT_SANITIZE STREQUAL "thread")
  message(FATAL_ERROR "MCP_EDIT_SANITIZE=${MCP_EDIT_SANITIZE} is not one of its values: OFF, 0 or empty (no "
    "sanitizer), ON or 1 (AddressSanitizer and UndefinedBehaviorSanitizer), thread (ThreadSanitizer)")
endif()

add_library(mcp_edit_sanitizers INTERFACE)
if(MCP_EDIT_SANITIZE STREQUAL "thread")
  # ThreadSanitizer: the unit tests (with tests/unit/concurrency_stress.cpp) as its workload.
  # asio's handler fences (std::atomic_thread_fence) are invisible to TSan: asio's own switch
  # replaces them with nothing; the scheduler's mutexes order the handlers. g++ 12 under
  # -fsanitize=thread reports -Wmismatched-new-delete on every asio coroutine frame (allocated and
  # freed by the same class-specific operator new/delete of awaitable_frame_base) and
  # -Wmaybe-uninitialized inside std::string's compare: false positives in the instrumented
  # libraries' inlined code, not in ours; the plain builds keep both warnings.
  target_compile_options(mcp_edit_sanitizers INTERFACE -fsanitize=thread -fno-omit-frame-pointer
    $<$<CXX_COMPILER_ID:GNU>:-Wno-mismatched-new-delete -Wno-maybe-uninitialized>)
  target_compile_definitions(mcp_edit_sanitizers INTERFACE ASIO_DISABLE_FENCED_BLOCK)
  target_link_options(mcp_edit_sanitizers INTERFACE -fsanitize=thread)
elseif(MCP_EDIT_SANITIZE)
  # g++ 12 under -fsanitize reports -Wmaybe-uninitialized inside libstdc++'s std::regex
  # (std::function members of its NFA states): false positives in the library, not our code.
  # clang 14's -fsanitize=function (part of undefined) cannot compile coroutines ("Cannot
  # represent a difference across sections"): left out there.
  target_compile_options(mcp_edit_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
    $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>
    $<$<CXX_COMPILER_ID:Clang>:-fno-sanitize=function>)
  target_link_options(mcp_edit_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
