// A tools/call's way in and out, apart from running it: from params to the tool and its arguments
// (other agents' call shapes mapped, unknown arguments set aside, the schema checked), and from the
// tool's result to what the client gets: a CallToolResult (notes for the model added,
// structuredContent only on success, an error's reason in _meta) or an InputRequiredResult.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "protocol/versions.hpp"
#include "tools/pipeline/call_shapes.hpp"
#include "tools/registry.hpp"
#include "tools/tool.hpp"
#include "tools/workbench.hpp"

namespace server {

// A call's tool and arguments once resolved (the workbench's PreparedCall).
using ToolCall = tools::PreparedCall;

// The tool and arguments `params` name (params["arguments"] is moved out), or the message of the
// Invalid params error to answer with.
base::Result<ToolCall, std::string> resolve_tool_call(const tools::Registry& registry, nlohmann::json& params);

// Checking arguments and adding notes are the workbench's (tools/workbench.hpp).
using tools::add_call_notes;
using tools::add_note;
using tools::check_arguments;

// What the client gets for `outcome`; takes its text and structured content.
nlohmann::json call_tool_result(tools::ToolResult& outcome, protocol::Era era);

// What a result too big for one message needs to say what to do instead: which tool, whether the
// change was written, and for read the lines it held. Taken before call_tool_result.
struct OversizedFacts {
    std::string tool;
    tools::ToolKind kind = tools::ToolKind::read_listing;
    bool written = false;     // a change that was approved and written
    std::int64_t offset = 1;  // read: the first line of the reply, and how many lines it held
    std::int64_t lines = 0;
};
OversizedFacts oversized_facts(const ToolCall& call, const tools::ToolResult& outcome);
// The isError result sent instead of one whose message would be `bytes` long, over `limit`:
// for read, offset/limit that fit; for a change, whether it was written and what to narrow.
nlohmann::json oversized_result(const OversizedFacts& facts, std::size_t bytes, std::size_t limit, protocol::Era era);

}  // namespace server
