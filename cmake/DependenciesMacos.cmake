# The dependencies of the macOS build (cross-compiled with Zig, see zig-macos.cmake). As for
# Windows, Debian's header-only libraries are seen one by one through a folder of links, never
# /usr/include itself; spdlog and fmt are compiled in. SHA-256, HMAC and random bytes come from
# libSystem (CommonCrypto, arc4random_buf: os/crypto_macos.cpp). utf8proc has no macOS build in
# Debian and Zig ships no CoreFoundation to link against, so Debian's utf8proc source package
# (the version the Linux build uses; scripts/build-macos fetches it with `apt-get source`) is
# compiled in: UTF8PROC_SOURCE_DIR names the unpacked source.
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

header_only_target(nlohmann_json::nlohmann_json)
header_only_target(fmt::fmt FMT_HEADER_ONLY)
header_only_target(spdlog::spdlog SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)
header_only_target(CLI11::CLI11)
header_only_target(valijson)
header_only_target(mcp_edit::dtl)
header_only_target(mcp_edit::xxhash XXH_INLINE_ALL)
header_only_target(doctest::doctest)
header_only_target(mcp_edit::asio ASIO_STANDALONE ASIO_NO_DEPRECATED)

add_library(mcp_edit::crypto INTERFACE IMPORTED)  # libSystem: nothing to add
add_library(mcp_edit::platform INTERFACE IMPORTED)
include(Pcre2Source)  # the grep tool's regular expressions, compiled in
include(UchardetSource)  # a file's charset from its bytes, compiled in
include(EditorConfigSource)  # a file's .editorconfig properties, compiled in (after PCRE2, which it uses)
# Conversion is the system's iconv (os/encoding_conversion_posix.cpp): /usr/lib/libiconv.2.dylib,
# GNU libiconv 1.11 on every macOS. Zig's bundled SDK has iconv.h but nothing to link against, so
# cmake/libiconv.tbd is the link stub: it names the dylib and the three functions called.
add_library(mcp_edit::iconv INTERFACE IMPORTED)
target_link_libraries(mcp_edit::iconv INTERFACE "${CMAKE_CURRENT_LIST_DIR}/libiconv.tbd")

set(UTF8PROC_SOURCE_DIR "" CACHE PATH "Debian's utf8proc source, unpacked (scripts/build-macos fetches it)")
if(NOT EXISTS "${UTF8PROC_SOURCE_DIR}/utf8proc.c" OR NOT EXISTS "${UTF8PROC_SOURCE_DIR}/utf8proc_data.c")
  message(FATAL_ERROR "UTF8PROC_SOURCE_DIR (\"${UTF8PROC_SOURCE_DIR}\") holds no utf8proc.c and utf8proc_data.c: "
    "build through scripts/build-macos, which fetches Debian's utf8proc source")
endif()
enable_language(C)
# utf8proc.c includes utf8proc_data.c itself.
add_library(mcp_edit_utf8proc STATIC "${UTF8PROC_SOURCE_DIR}/utf8proc.c")
target_compile_definitions(mcp_edit_utf8proc PUBLIC UTF8PROC_STATIC)
target_include_directories(mcp_edit_utf8proc SYSTEM PUBLIC "${UTF8PROC_SOURCE_DIR}")
add_library(mcp_edit::utf8proc ALIAS mcp_edit_utf8proc)
