# PCRE2 for the cross-builds (Windows, macOS), which have no Debian package to link: Debian's own
# pcre2 source package (the upstream release the Linux build links; scripts/debian-source fetches it)
# compiled in as PCRE2's CMake build would: the 8-bit library, Unicode and the JIT, static.
# PCRE2_SOURCE_DIR names the unpacked source.
set(PCRE2_SOURCE_DIR "" CACHE PATH "Debian's pcre2 source, unpacked (scripts/debian-source libpcre2-dev pcre2 DIR)")
if(NOT EXISTS "${PCRE2_SOURCE_DIR}/src/pcre2_compile.c" OR NOT EXISTS "${PCRE2_SOURCE_DIR}/src/config.h.generic")
  message(FATAL_ERROR "PCRE2_SOURCE_DIR (\"${PCRE2_SOURCE_DIR}\") holds no src/pcre2_compile.c: build through "
    "scripts/build-macos or scripts/test-windows, which fetch Debian's pcre2 source with scripts/debian-source")
endif()
enable_language(C)

# The files PCRE2's own build generates from shipped templates.
set(PCRE2_GENERATED "${CMAKE_BINARY_DIR}/pcre2-generated")
configure_file("${PCRE2_SOURCE_DIR}/src/config.h.generic" "${PCRE2_GENERATED}/config.h" COPYONLY)
configure_file("${PCRE2_SOURCE_DIR}/src/pcre2.h.generic" "${PCRE2_GENERATED}/include/pcre2.h" COPYONLY)
configure_file("${PCRE2_SOURCE_DIR}/src/pcre2_chartables.c.dist" "${PCRE2_GENERATED}/pcre2_chartables.c" COPYONLY)

set(pcre2_sources auto_possess compile config context convert dfa_match error extuni find_bracket jit_compile
  maketables match match_data newline ord2utf pattern_info script_run serialize string_utils study substitute
  substring tables ucd valid_utf xclass)
list(TRANSFORM pcre2_sources PREPEND "${PCRE2_SOURCE_DIR}/src/pcre2_")
list(TRANSFORM pcre2_sources APPEND ".c")
add_library(mcp_edit_pcre2 STATIC ${pcre2_sources} "${PCRE2_GENERATED}/pcre2_chartables.c")
# config.h.generic leaves these undefined; PCRE2's CMake build defines them from its options.
target_compile_definitions(mcp_edit_pcre2 PRIVATE HAVE_CONFIG_H SUPPORT_UNICODE SUPPORT_JIT HAVE_MEMMOVE
  PUBLIC PCRE2_CODE_UNIT_WIDTH=8 PCRE2_STATIC)
target_include_directories(mcp_edit_pcre2 PRIVATE "${PCRE2_GENERATED}" "${PCRE2_SOURCE_DIR}/src"
  SYSTEM PUBLIC "${PCRE2_GENERATED}/include")
set_target_properties(mcp_edit_pcre2 PROPERTIES C_STANDARD 99)
target_compile_options(mcp_edit_pcre2 PRIVATE -w)  # third-party code: its warnings are not ours to fix
add_library(mcp_edit::pcre2 ALIAS mcp_edit_pcre2)
