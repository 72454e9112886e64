// From tools/call params to a tool call, and from its ToolResult to the JSON-RPC result.
#include "server/tool_call.hpp"

#include "protocol/jsonrpc.hpp"
#include "server/approval_gate.hpp"

namespace server {

using Json = nlohmann::json;

base::Result<ToolCall, std::string> resolve_tool_call(const tools::Registry& registry, Json& params) {
    const auto name_it = params.find("name");
    if (name_it == params.end() || !name_it->is_string())
        return base::fail(std::string("Invalid params: tools/call needs \"name\", a string"));
    ToolCall call;
    call.name = name_it->get<std::string>();
    call.tool = registry.find(call.name);
    if (!call.tool) {
        std::string available;
        for (const auto& n : registry.names()) available += (available.empty() ? "" : ", ") + n;
        return base::fail("Unknown tool: " + call.name + ". Available tools: " + available);
    }
    if (const auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
        if (!a->is_object()) return base::fail(std::string("Invalid params: \"arguments\" must be an object"));
        call.args = std::move(*a);  // nothing reads params["arguments"] after this
    }
    // Other agents' call shapes (Anthropic's `command`, pi's and Kimi's edit lists, Roo's XML) may
    // name another of our tools: the call is served, and its permissions asked, as that tool.
    auto shape = tools::map_call_shape(call.name, call.args);
    if (!shape) {
        call.unmappable = std::move(shape).error();
        return call;
    }
    call.shape = std::move(shape).value();
    if (const tools::ToolDefinition* mapped = registry.find(call.shape.tool); mapped && mapped != call.tool) {
        call.tool = mapped;
        call.name = call.shape.tool;
    }
    tools::Registry::apply_aliases(call.args);
    return call;
}

std::optional<tools::ToolResult> check_arguments(const tools::Registry& registry, ToolCall& call) {
    if (call.unmappable) return tools::ToolResult::error(std::move(*call.unmappable));
    auto unknown = registry.set_aside_unknown_arguments(*call.tool, call.args);
    if (!unknown) return tools::ToolResult::error(std::move(unknown).error());
    call.unknown = std::move(unknown).value();
    if (auto valid = registry.validate(*call.tool, call.args); !valid)
        return tools::ToolResult::error(std::move(valid).error());
    return std::nullopt;
}

void add_note(tools::ToolResult& outcome, const std::string& note) {
    if (note.empty() || outcome.input_required) return;
    if (!outcome.text.empty()) outcome.text += outcome.text.back() == '\n' ? "\n" : "\n\n";
    outcome.text += note;
    if (!outcome.structured.is_object()) return;
    if (const auto notes = outcome.structured.find("notes"); notes != outcome.structured.end() && notes->is_array())
        notes->push_back(note);
}

void add_call_notes(tools::ToolResult& outcome, const ToolCall& call) {
    std::string shape_note;
    for (const auto& note : call.shape.notes) shape_note += (shape_note.empty() ? "" : " ") + note;
    add_note(outcome, shape_note);
    add_note(outcome, call.unknown.note);
}

Json call_tool_result(tools::ToolResult& outcome, bool modern) {
    if (outcome.input_required) return outcome.input_required->result;
    const auto text_item = [](std::string& text) {
        Json::object_t item;
        item.emplace("type", "text");
        item.emplace("text", std::move(text));
        return Json(std::move(item));
    };
    Json content = Json::array();
    content.push_back(text_item(outcome.text));
    if (!outcome.extra_text.empty()) content.push_back(text_item(outcome.extra_text));
    Json result = {{"content", std::move(content)}};
    if (outcome.is_error) {
        result["isError"] = true;
        // Why, as a word (structuredContent would hide content[0] from some hosts; errors have none).
        result["_meta"] = {{base::reason_meta_key, base::to_string(outcome.reason)}};
    } else if (!outcome.structured.is_null()) {
        result["structuredContent"] = std::move(outcome.structured);
    }
    if (modern) result["resultType"] = "complete";
    return result;
}

}  // namespace server
