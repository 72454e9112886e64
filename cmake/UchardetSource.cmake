# uchardet for the cross-builds (Windows, macOS), which have no Debian package to link: Debian's own
# uchardet source package (the release the Linux build links; scripts/debian-source fetches it)
# compiled in as a static library, as its CMake build would. os/encoding_detection uses it to name a
# file's charset from its bytes. UCHARDET_SOURCE_DIR names the unpacked source.
set(UCHARDET_SOURCE_DIR "" CACHE PATH "Debian's uchardet source, unpacked (scripts/debian-source libuchardet-dev uchardet DIR)")
if(NOT EXISTS "${UCHARDET_SOURCE_DIR}/src/uchardet.cpp" OR NOT EXISTS "${UCHARDET_SOURCE_DIR}/src/uchardet.h")
  message(FATAL_ERROR "UCHARDET_SOURCE_DIR (\"${UCHARDET_SOURCE_DIR}\") holds no src/uchardet.cpp: build through "
    "scripts/build-macos or scripts/test-windows, which fetch Debian's uchardet source with scripts/debian-source")
endif()

# Its version, for the VERSION definition its sources expect, from its own CMakeLists.txt.
file(STRINGS "${UCHARDET_SOURCE_DIR}/CMakeLists.txt" uchardet_version_parts
  REGEX "^set \\(UCHARDET_VERSION_(MAJOR|MINOR|REVISION) [0-9]+\\)")
set(uchardet_version "")
foreach(part IN LISTS uchardet_version_parts)
  string(REGEX REPLACE ".* ([0-9]+)\\)" "\\1" number "${part}")
  list(APPEND uchardet_version "${number}")
endforeach()
list(JOIN uchardet_version "." uchardet_version)

# The library's sources (not src/tools, its command-line program); the header where the Linux
# build finds it, <uchardet/uchardet.h>.
file(GLOB uchardet_sources "${UCHARDET_SOURCE_DIR}/src/*.cpp" "${UCHARDET_SOURCE_DIR}/src/LangModels/*.cpp")
set(UCHARDET_GENERATED "${CMAKE_BINARY_DIR}/uchardet-generated")
configure_file("${UCHARDET_SOURCE_DIR}/src/uchardet.h" "${UCHARDET_GENERATED}/include/uchardet/uchardet.h" COPYONLY)
add_library(mcp_edit_uchardet STATIC ${uchardet_sources})
target_compile_definitions(mcp_edit_uchardet PRIVATE VERSION="${uchardet_version}")
target_include_directories(mcp_edit_uchardet PRIVATE "${UCHARDET_SOURCE_DIR}/src"
  SYSTEM PUBLIC "${UCHARDET_GENERATED}/include")
# Third-party code: its warnings are not ours to fix, and its files were not written to share a
# unity batch (file-local names repeat).
target_compile_options(mcp_edit_uchardet PRIVATE -w)
set_target_properties(mcp_edit_uchardet PROPERTIES UNITY_BUILD OFF)
add_library(mcp_edit::uchardet ALIAS mcp_edit_uchardet)
