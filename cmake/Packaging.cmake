# What users install: `cmake --install` puts the binary, its man page (help2man, from the same text
# as --help and --version) and the README in place; `cpack` wraps them as a .deb (Linux, with the
# shared-library dependencies dpkg-shlibdeps finds) or as a zip holding mcp-edit.exe (Windows).
include(GNUInstallDirs)

if(WIN32)
  # One folder: mcp-edit.exe (static, no DLLs), its README and its licence.
  install(TARGETS mcp-edit RUNTIME DESTINATION .)
  install(FILES README.md LICENSE DESTINATION .)
else()
  install(TARGETS mcp-edit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # Debian's place for the licence: /usr/share/doc/PACKAGE/copyright, machine-readable.
  install(FILES packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
  find_program(HELP2MAN help2man)
  find_program(GZIP gzip)
  if(HELP2MAN AND GZIP AND NOT CMAKE_CROSSCOMPILING)
    set(man_page "${CMAKE_CURRENT_BINARY_DIR}/mcp-edit.1.gz")
    add_custom_command(OUTPUT "${man_page}"
      COMMAND "${HELP2MAN}" --no-info --section=1
              "--name=MCP server through which AI agents change files safely"
              --output=mcp-edit.1 $<TARGET_FILE:mcp-edit>
      COMMAND "${GZIP}" -9nf mcp-edit.1
      DEPENDS mcp-edit
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "Writing the man page from mcp-edit --help")
    add_custom_target(man-page ALL DEPENDS "${man_page}")
    install(FILES "${man_page}" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  else()
    message(WARNING "help2man or gzip not found: no man page (scripts/setup installs help2man)")
  endif()
endif()

set(CPACK_PACKAGE_NAME mcp-edit)
set(CPACK_PACKAGE_VENDOR "mcp-edit")
set(CPACK_PACKAGE_CONTACT "The mcp-edit developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "MCP server over stdio through which AI agents change files safely")
set(CPACK_PACKAGE_DESCRIPTION
  "Every change an agent asks for is computed in memory, shown as a unified diff, approved by the\n"
  "human (in the host's MCP Apps review view, or an MCP elicitation form) or by policy, and written\n"
  "atomically and byte-exact. Tools: read, edit, multiedit, write, insert, apply_diff, undo,\n"
  "changes, list, find, grep, move, delete. `mcp-edit config HOST` prints the block that wires it\n"
  "into Claude Desktop, Claude Code, VS Code, Cursor, Codex or Gemini CLI.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_STRIP_FILES ON)
if(WIN32)
  set(CPACK_GENERATOR ZIP)
  set(CPACK_PACKAGE_FILE_NAME "mcp-edit-${PROJECT_VERSION}-windows-x86_64")
  set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
else()
  set(CPACK_GENERATOR DEB)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
