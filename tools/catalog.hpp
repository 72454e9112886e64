// The tools this server serves, in the order tools/list lists them: the contract's seven, then
// `changes`, then list, find, grep, move, delete, then `review` (the review view's decision).
// Adding a tool is three things: its schema (schemas/NAME.json), its file (tools/NAME.cpp, which
// defines NAME_tool()), and its entry here.
#pragma once

#include <vector>

#include "tools/tool_definition.hpp"

#define MCP_EDIT_TOOLS(X) \
    X(read)               \
    X(edit)               \
    X(multiedit)          \
    X(write)              \
    X(insert)             \
    X(apply_diff)         \
    X(undo)               \
    X(changes)            \
    X(list)               \
    X(find)               \
    X(grep)               \
    X(move)               \
    X(delete)             \
    X(review)

namespace tools {

#define MCP_EDIT_DECLARE_TOOL(name) const ToolSpec& name##_tool();
MCP_EDIT_TOOLS(MCP_EDIT_DECLARE_TOOL)
#undef MCP_EDIT_DECLARE_TOOL

// Every tool above, in that order.
std::vector<const ToolSpec*> served_tools();

}  // namespace tools
