# libeditorconfig for the cross-builds (Windows, macOS), which have no Debian package to link:
# Debian's own editorconfig-core source package (the release the Linux build links;
# scripts/debian-source fetches it) compiled in as a static library, as its CMake build would.
# os/editorconfig.cpp uses it for the .editorconfig properties of a file. Its globs are PCRE2
# regular expressions: it links the PCRE2 that Pcre2Source.cmake compiles (included before this).
# EDITORCONFIG_SOURCE_DIR names the unpacked source.
set(EDITORCONFIG_SOURCE_DIR "" CACHE PATH
  "Debian's editorconfig-core source, unpacked (scripts/debian-source libeditorconfig-dev editorconfig-core DIR)")
if(NOT EXISTS "${EDITORCONFIG_SOURCE_DIR}/src/lib/editorconfig.c" OR NOT EXISTS "${EDITORCONFIG_SOURCE_DIR}/src/config.h.in")
  message(FATAL_ERROR "EDITORCONFIG_SOURCE_DIR (\"${EDITORCONFIG_SOURCE_DIR}\") holds no src/lib/editorconfig.c: build "
    "through scripts/build-macos or scripts/test-windows, which fetch Debian's editorconfig-core source with scripts/debian-source")
endif()
if(NOT TARGET mcp_edit_pcre2)
  message(FATAL_ERROR "EditorConfigSource.cmake needs the PCRE2 target: include Pcre2Source first")
endif()
enable_language(C)

# src/config.h, as its src/CMakeLists.txt makes it from its checks of the C library
# (check_function_exists, check_type_size). What those find, per target: mingw-w64 (GCC) has
# strcasecmp (an inline over _stricmp), strdup, stricmp and strlwr but no strndup; macOS's libc (Zig's
# clang: not "GNUCC") has strcasecmp, strdup and strndup, neither stricmp nor strlwr. The library's
# own fallbacks (misc.c) stand in for the rest. PCRE2 is the static one compiled here. The version
# (EC_VERSION_*) is its project()'s. A function, so that none of these variables (WIN32,
# PROJECT_VERSION_*) leaks into the build.
set(EDITORCONFIG_GENERATED "${CMAKE_BINARY_DIR}/editorconfig-generated")
function(editorconfig_config_header)
  file(STRINGS "${EDITORCONFIG_SOURCE_DIR}/CMakeLists.txt" project_line REGEX "^project\\(editorconfig VERSION ")
  if(NOT project_line MATCHES "VERSION \"([0-9]+)\\.([0-9]+)\\.([0-9]+)\"")
    message(FATAL_ERROR "No version found in ${EDITORCONFIG_SOURCE_DIR}/CMakeLists.txt")
  endif()
  set(PROJECT_VERSION_MAJOR "${CMAKE_MATCH_1}")
  set(PROJECT_VERSION_MINOR "${CMAKE_MATCH_2}")
  set(PROJECT_VERSION_PATCH "${CMAKE_MATCH_3}")
  set(PROJECT_VERSION_SUFFIX "")
  foreach(name UNIX WIN32 HAVE_STRCASECMP HAVE_STRDUP HAVE_STRICMP HAVE_STRNDUP HAVE_STRLWR CMAKE_COMPILER_IS_GNUCC MSVC)
    set(${name} OFF)
  endforeach()
  set(HAVE__BOOL ON)
  set(HAVE_CONST ON)
  set(PCRE2_STATIC ON)
  if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
    set(WIN32 ON)
    set(HAVE_STRCASECMP ON)
    set(HAVE_STRDUP ON)
    set(HAVE_STRICMP ON)
    set(HAVE_STRLWR ON)
    set(CMAKE_COMPILER_IS_GNUCC ON)
  elseif(CMAKE_SYSTEM_NAME STREQUAL "Darwin")
    set(UNIX ON)
    set(HAVE_STRCASECMP ON)
    set(HAVE_STRDUP ON)
    set(HAVE_STRNDUP ON)
  else()
    message(FATAL_ERROR "EditorConfigSource.cmake is for the Windows and macOS cross-builds; Linux links Debian's libeditorconfig")
  endif()
  configure_file("${EDITORCONFIG_SOURCE_DIR}/src/config.h.in" "${EDITORCONFIG_GENERATED}/auto/config.h")
endfunction()
editorconfig_config_header()

# The header where the Linux build finds it, <editorconfig/editorconfig.h> (with the handle's header
# it includes); include/util.h stays the library's own.
foreach(header editorconfig.h editorconfig_handle.h)
  configure_file("${EDITORCONFIG_SOURCE_DIR}/include/editorconfig/${header}"
    "${EDITORCONFIG_GENERATED}/include/editorconfig/${header}" COPYONLY)
endforeach()

set(editorconfig_sources ec_glob editorconfig editorconfig_handle ini misc)  # src/lib/CMakeLists.txt's list
list(TRANSFORM editorconfig_sources PREPEND "${EDITORCONFIG_SOURCE_DIR}/src/lib/")
list(TRANSFORM editorconfig_sources APPEND ".c")
add_library(mcp_edit_editorconfig STATIC ${editorconfig_sources})
target_include_directories(mcp_edit_editorconfig PRIVATE "${EDITORCONFIG_GENERATED}/auto"
  "${EDITORCONFIG_SOURCE_DIR}/include" "${EDITORCONFIG_SOURCE_DIR}/src/lib"
  SYSTEM PUBLIC "${EDITORCONFIG_GENERATED}/include")
# Its build takes plain char as unsigned (src/CMakeLists.txt).
target_compile_options(mcp_edit_editorconfig PRIVATE -funsigned-char)
target_link_libraries(mcp_edit_editorconfig PRIVATE mcp_edit_pcre2)
target_link_libraries(mcp_edit_editorconfig INTERFACE mcp_edit_pcre2)
if(WIN32)
  target_link_libraries(mcp_edit_editorconfig INTERFACE shlwapi)  # PathIsRelative (misc.c)
endif()
set_target_properties(mcp_edit_editorconfig PROPERTIES C_STANDARD 99)
# Third-party code: its warnings are not ours to fix, and its files were not written to share a
# unity batch (file-local names repeat).
target_compile_options(mcp_edit_editorconfig PRIVATE -w)
set_target_properties(mcp_edit_editorconfig PROPERTIES UNITY_BUILD OFF)
add_library(mcp_edit::editorconfig ALIAS mcp_edit_editorconfig)
