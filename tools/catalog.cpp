// served_tools: the list in tools/catalog.hpp as specs.
#include "tools/catalog.hpp"

namespace tools {

std::vector<const ToolSpec*> served_tools() {
#define MCP_EDIT_SPEC_OF(name) &name##_tool(),
    return {MCP_EDIT_TOOLS(MCP_EDIT_SPEC_OF)};
#undef MCP_EDIT_SPEC_OF
}

}  // namespace tools
