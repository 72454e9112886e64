// Each tool's handler on its own, for tests that call a tool without a registry or a session:
// tools::read_handler() is read_tool().handler, and so on for every tool of tools/catalog.hpp.
#pragma once

#include "tools/catalog.hpp"

namespace tools {

#define MCP_EDIT_TEST_HANDLER(name) \
    inline Handler name##_handler() { return name##_tool().handler; }
MCP_EDIT_TOOLS(MCP_EDIT_TEST_HANDLER)
#undef MCP_EDIT_TEST_HANDLER

}  // namespace tools
