# Every dependency is a Debian package found on the system; nothing is vendored or downloaded.
# asio (standalone), dtl and xxhash ship no CMake config, so they get small imported targets here.
# The Windows and macOS builds (cross-compiled) take the same packages header-only:
# DependenciesWindows.cmake, DependenciesMacos.cmake.
if(WIN32)
  include(DependenciesWindows)
  return()
elseif(APPLE)
  include(DependenciesMacos)
  return()
endif()

# MCP_EDIT_PORTABLE (the default, but for sanitizer and fuzz builds): one executable that runs on
# any x86-64 Linux with glibc 2.34 or later (os/glibc_compat_portable.cpp), as the npm package and the .mcpb carry it to users who
# have none of these packages: libcrypto, utf8proc and xxHash linked from Debian's static archives,
# spdlog and fmt compiled in, libstdc++ linked statically; only glibc and libgcc_s stay dynamic.
if(MCP_EDIT_SANITIZE OR MCP_EDIT_FUZZ)
  set(portable_default OFF)
else()
  set(portable_default ON)
endif()
option(MCP_EDIT_PORTABLE "Link every library but glibc statically (the executable the packages carry)"
  ${portable_default})

find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
if(MCP_EDIT_PORTABLE)
  find_path(SPDLOG_INCLUDE_DIR spdlog/spdlog.h REQUIRED)
  find_path(FMT_INCLUDE_DIR fmt/format.h REQUIRED)
  add_library(fmt::fmt INTERFACE IMPORTED)
  target_include_directories(fmt::fmt SYSTEM INTERFACE "${FMT_INCLUDE_DIR}")
  target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)
  add_library(spdlog::spdlog INTERFACE IMPORTED)
  target_include_directories(spdlog::spdlog SYSTEM INTERFACE "${SPDLOG_INCLUDE_DIR}")
  target_compile_definitions(spdlog::spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
  target_link_libraries(spdlog::spdlog INTERFACE fmt::fmt Threads::Threads)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
  # libgcc_s stays shared: every glibc system has it, and the static libgcc's unwinder finds a
  # frame's unwind tables with _dl_find_object, which glibc has only since 2.35 (the 0.07 ms a
  # start that linking it statically saved is not worth the users of glibc 2.34).
  add_link_options(-static-libstdc++)
else()
  find_package(spdlog REQUIRED)
  find_package(fmt REQUIRED)  # with spdlog (Debian libfmt-dev); hex formatting in os/
endif()
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
add_library(mcp_edit::crypto INTERFACE IMPORTED)  # os/crypto_openssl.cpp
target_link_libraries(mcp_edit::crypto INTERFACE OpenSSL::Crypto)
add_library(mcp_edit::platform INTERFACE IMPORTED)  # what the os/ layer needs: libc only
find_package(CLI11 REQUIRED)
find_package(valijson REQUIRED)

find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(mcp_edit::asio INTERFACE IMPORTED)
target_include_directories(mcp_edit::asio SYSTEM INTERFACE "${ASIO_INCLUDE_DIR}")
target_compile_definitions(mcp_edit::asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED
  # asio 1.22 looks for clang's coroutines in <experimental/coroutine> only; clang 14 with
  # libstdc++ has C++20's <coroutine>, which asio then uses.
  $<$<CXX_COMPILER_ID:Clang>:ASIO_HAS_CO_AWAIT=1>)

find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
# A portable build takes a library's static archive (lib<name>.a) before its shared one.
function(find_linked_library variable name)
  set(names ${name})
  if(MCP_EDIT_PORTABLE)
    set(names lib${name}.a ${name})
  endif()
  find_library(${variable} NAMES ${names} NAMES_PER_DIR REQUIRED)
endfunction()
find_linked_library(XXHASH_LIBRARY xxhash)
add_library(mcp_edit::xxhash INTERFACE IMPORTED)
target_include_directories(mcp_edit::xxhash SYSTEM INTERFACE "${XXHASH_INCLUDE_DIR}")
target_link_libraries(mcp_edit::xxhash INTERFACE "${XXHASH_LIBRARY}")

find_path(DTL_INCLUDE_DIR dtl/dtl.hpp REQUIRED)
add_library(mcp_edit::dtl INTERFACE IMPORTED)
target_include_directories(mcp_edit::dtl SYSTEM INTERFACE "${DTL_INCLUDE_DIR}")

# utf8proc (Debian libutf8proc-dev): Unicode normalisation (NFKC) for the matcher's Unicode tier.
find_path(UTF8PROC_INCLUDE_DIR utf8proc.h REQUIRED)
find_linked_library(UTF8PROC_LIBRARY utf8proc)
add_library(mcp_edit::utf8proc INTERFACE IMPORTED)
if(MCP_EDIT_PORTABLE)
  target_compile_definitions(mcp_edit::utf8proc INTERFACE UTF8PROC_STATIC)
endif()
target_include_directories(mcp_edit::utf8proc SYSTEM INTERFACE "${UTF8PROC_INCLUDE_DIR}")
target_link_libraries(mcp_edit::utf8proc INTERFACE "${UTF8PROC_LIBRARY}")

# PCRE2 (Debian libpcre2-dev, the 8-bit library): the grep tool's regular expressions, compiled
# once per call and run by the JIT.
find_path(PCRE2_INCLUDE_DIR pcre2.h REQUIRED)
find_linked_library(PCRE2_LIBRARY pcre2-8)
add_library(mcp_edit::pcre2 INTERFACE IMPORTED)
target_include_directories(mcp_edit::pcre2 SYSTEM INTERFACE "${PCRE2_INCLUDE_DIR}")
target_link_libraries(mcp_edit::pcre2 INTERFACE "${PCRE2_LIBRARY}")
target_compile_definitions(mcp_edit::pcre2 INTERFACE PCRE2_CODE_UNIT_WIDTH=8 $<$<BOOL:${MCP_EDIT_PORTABLE}>:PCRE2_STATIC>)

# uchardet (Debian libuchardet-dev): a file's charset from its bytes when it declares none and is
# not UTF-8 (os/encoding_detection.cpp). A C++ library: its static archive needs libstdc++, which
# the portable build links statically anyway. Conversion is glibc's iconv: nothing to link.
find_path(UCHARDET_INCLUDE_DIR uchardet/uchardet.h REQUIRED)
find_linked_library(UCHARDET_LIBRARY uchardet)
add_library(mcp_edit::uchardet INTERFACE IMPORTED)
target_include_directories(mcp_edit::uchardet SYSTEM INTERFACE "${UCHARDET_INCLUDE_DIR}")
target_link_libraries(mcp_edit::uchardet INTERFACE "${UCHARDET_LIBRARY}")

# libeditorconfig (Debian libeditorconfig-dev, EditorConfig's own C core): the .editorconfig
# properties of a file (os/editorconfig.cpp). Its globs are PCRE2 regular expressions: PCRE2 after it.
find_path(EDITORCONFIG_INCLUDE_DIR editorconfig/editorconfig.h REQUIRED)
find_linked_library(EDITORCONFIG_LIBRARY editorconfig)
add_library(mcp_edit::editorconfig INTERFACE IMPORTED)
target_include_directories(mcp_edit::editorconfig SYSTEM INTERFACE "${EDITORCONFIG_INCLUDE_DIR}")
target_link_libraries(mcp_edit::editorconfig INTERFACE "${EDITORCONFIG_LIBRARY}" "${PCRE2_LIBRARY}")
add_library(mcp_edit::iconv INTERFACE IMPORTED)  # glibc's iconv: part of libc
