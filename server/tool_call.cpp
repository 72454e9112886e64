// From tools/call params to a tool call, and from its ToolResult to the JSON-RPC result.
#include "server/tool_call.hpp"
#include "base/wording.hpp"

#include <algorithm>

#include "protocol/jsonrpc.hpp"
#include "server/approval_gate.hpp"

namespace server {

using Json = nlohmann::json;

base::Result<ToolCallParams, std::string> tool_call_params(Json& params) {
    const auto name_it = params.find("name");
    if (name_it == params.end() || !name_it->is_string())
        return base::fail(std::string("Invalid params: tools/call needs \"name\", a string"));
    ToolCallParams call;
    call.name = name_it->get<std::string>();
    if (const auto a = params.find("arguments"); a != params.end())
        call.arguments = std::move(*a);  // nothing reads params["arguments"] after this
    return call;
}

Json call_tool_result(tools::ToolResult& outcome, protocol::Era era) {
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
    for (auto& item : outcome.extra_content) content.push_back(std::move(item));
    Json result = {{"content", std::move(content)}};
    if (outcome.is_error) {
        result["isError"] = true;
        // Why, as a word (structuredContent would hide content[0] from some hosts; errors have none).
        result["_meta"] = {{base::reason_meta_key, base::to_string(outcome.reason)}};
    } else if (!outcome.structured.is_null()) {
        // An empty `notes` list says nothing and costs the model tokens in hosts that show it
        // structuredContent (issue 26); a change's notes exist until here so add_note can fill them.
        if (const auto notes = outcome.structured.find("notes");
            notes != outcome.structured.end() && notes->is_array() && notes->empty())
            outcome.structured.erase(notes);
        result["structuredContent"] = std::move(outcome.structured);
    }
    if (outcome.meta.is_object())
        for (auto& [key, value] : outcome.meta.items()) result["_meta"][key] = std::move(value);
    if (era == protocol::Era::modern) result["resultType"] = "complete";
    return result;
}

}  // namespace server

namespace server {

namespace {

std::int64_t integer_member(const Json& object, std::string_view key, std::int64_t fallback) {
    const Json* m = protocol::member(object, key);
    return m && m->is_number_integer() ? m->get<std::int64_t>() : fallback;
}

}  // namespace

OversizedFacts oversized_facts(const std::string& tool, tools::ToolKind kind, const tools::ToolResult& outcome) {
    OversizedFacts facts;
    facts.tool = tool;
    facts.kind = kind;
    if (facts.kind == tools::ToolKind::read_lines) {
        const std::int64_t first = integer_member(outcome.structured, "start_line", 1);
        facts.offset = first;
        facts.lines = std::max<std::int64_t>(0, integer_member(outcome.structured, "end_line", first - 1) - first + 1);
    } else if (tools::changes_files(facts.kind) && !outcome.is_error) {
        const Json* dry = protocol::member(outcome.structured, "dry_run");
        facts.written = !(dry && dry->is_boolean() && dry->get<bool>());
    }
    return facts;
}

Json oversized_result(const OversizedFacts& facts, std::size_t bytes, std::size_t limit, protocol::Era era) {
    const std::string size =
        base::mebibytes(bytes) + " of JSON, over the " + base::mebibytes(limit) + " one message may carry";
    std::string text;
    if (facts.kind == tools::ToolKind::read_lines) {
        // Lines vary: aim at three quarters of what would fit on average.
        const auto fit = static_cast<std::int64_t>(static_cast<double>(facts.lines) * static_cast<double>(limit) /
                                                   static_cast<double>(bytes) * 0.75);
        text = "This read's reply would be " + size +
               " (characters JSON must escape, such as control characters, take up to six bytes each). Nothing is "
               "wrong with the file: read fewer lines at a time, e.g. offset: " +
               std::to_string(facts.offset) + ", limit: " + std::to_string(std::max<std::int64_t>(1, fit)) + ".";
    } else if (facts.kind == tools::ToolKind::session_patch) {
        text = "The result of changes would be " + size +
               ". Ask for one file at a time with file_path, or read the resource mcp-edit://session/patch.";
    } else if (facts.kind == tools::ToolKind::read_listing || facts.kind == tools::ToolKind::review_decision) {
        text = "The result of this " + facts.tool + " would be " + size +
               "; nothing was changed. Narrow the call: a folder further down, a narrower pattern or glob, or fewer "
               "results (max_results).";
    } else if (facts.written) {
        text = "The " + facts.tool +
               " was applied and written to disk: do not repeat it. Only its result could not be "
               "sent: it would be " +
               size + ". To see the file now, read it in parts with offset/limit.";
    } else {
        text = "The result of this " + facts.tool + " would be " + size +
               "; nothing was written. Narrow the call: change fewer lines or files at once (split a multiedit's "
               "edits, or an apply_diff's files and blocks, over several calls).";
    }
    tools::ToolResult outcome = tools::ToolResult::error(std::move(text), base::ErrorReason::too_large);
    return call_tool_result(outcome, era);
}

}  // namespace server
