# The dependencies of the Windows build (cross-compiled with mingw-w64, see mingw-w64.cmake). The
# libraries are the same Debian packages, used header-only: their headers are made visible one by
# one through a folder of links, never /usr/include itself (its glibc headers are not Windows').
# spdlog and fmt are compiled in (header-only mode). Hashes, HMAC and random bytes come from
# Windows CNG (bcrypt) instead of OpenSSL. utf8proc has no Windows build in Debian: the matcher's
# Unicode tier uses Windows' own normalisation (NormalizeString) there.
find_package(Threads REQUIRED)

set(DEBIAN_HEADERS "${CMAKE_BINARY_DIR}/debian-headers")
file(MAKE_DIRECTORY "${DEBIAN_HEADERS}")
foreach(entry nlohmann asio asio.hpp dtl valijson CLI xxhash.h doctest spdlog fmt)
  if(NOT EXISTS "/usr/include/${entry}")
    message(FATAL_ERROR "/usr/include/${entry} is missing: run scripts/setup")
  endif()
  file(CREATE_LINK "/usr/include/${entry}" "${DEBIAN_HEADERS}/${entry}" SYMBOLIC)
endforeach()

function(header_only_target name)
  add_library(${name} INTERFACE IMPORTED)
  target_include_directories(${name} SYSTEM INTERFACE "${DEBIAN_HEADERS}")
  target_compile_definitions(${name} INTERFACE ${ARGN})
endfunction()

# Windows 10 APIs (GetFinalPathNameByHandleW, SetFileInformationByHandle, ...).
set(WINDOWS_VERSION_DEFINES _WIN32_WINNT=0x0A00 WINVER=0x0A00 NOMINMAX WIN32_LEAN_AND_MEAN UNICODE _UNICODE)

header_only_target(nlohmann_json::nlohmann_json)
header_only_target(fmt::fmt FMT_HEADER_ONLY)
header_only_target(spdlog::spdlog SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
header_only_target(CLI11::CLI11)
header_only_target(valijson)
header_only_target(mcp_edit::dtl)
header_only_target(mcp_edit::xxhash XXH_INLINE_ALL)
header_only_target(doctest::doctest)
# asio picks its threads, mutexes and events per translation unit: POSIX ones (winpthreads) when
# <pthread.h> came first (libstdc++ of the POSIX thread model includes it), Windows ones otherwise.
# Mixed in one program they break the one-definition rule: an io_context made in one file and shut
# down by another never joined its timer thread, which then wrote into freed memory. One choice
# for every file: the POSIX ones, which the standard library itself uses here.
header_only_target(mcp_edit::asio ASIO_STANDALONE ASIO_NO_DEPRECATED ASIO_HAS_THREADS=1 ASIO_HAS_PTHREADS=1
  ${WINDOWS_VERSION_DEFINES})
target_link_libraries(mcp_edit::asio INTERFACE ws2_32 mswsock)

# What stands in for OpenSSL and utf8proc: Windows' own libraries.
add_library(mcp_edit::crypto INTERFACE IMPORTED)
target_link_libraries(mcp_edit::crypto INTERFACE bcrypt crypt32)
add_library(mcp_edit::utf8proc INTERFACE IMPORTED)
target_compile_definitions(mcp_edit::utf8proc INTERFACE ${WINDOWS_VERSION_DEFINES})
target_link_libraries(mcp_edit::utf8proc INTERFACE normaliz)
add_library(mcp_edit::platform INTERFACE IMPORTED)
include(Pcre2Source)  # the grep tool's regular expressions, compiled in
include(UchardetSource)  # a file's charset from its bytes, compiled in
include(EditorConfigSource)  # a file's .editorconfig properties, compiled in (after PCRE2, which it uses)
# Conversion goes through Windows' code pages (os/encoding_conversion_windows.cpp): kernel32.
add_library(mcp_edit::iconv INTERFACE IMPORTED)
target_compile_definitions(mcp_edit::platform INTERFACE ${WINDOWS_VERSION_DEFINES})
