// Reading a request's envelope once: _meta (protocol version, client capabilities and info,
// progress token) and the 2026-07-28 retry's requestState and inputResponses; the quirks table.
#include "server/session_envelope.hpp"

#include <array>
#include <string>
#include <utility>

namespace server {

using Json = nlohmann::json;

namespace {

struct NamedQuirks {
    std::string_view client_name;
    bool prefix;  // the name starts with client_name (Qwen Code appends the server's own name)
    ClientQuirks quirks;
};

// Every client that needs something other than the defaults, by clientInfo.name. The budgets
// leave room for what JSON escaping adds (a tab and a newline per numbered line), the facts
// beside the text and, for Qwen Code, results other than read's that carry their text in both
// structuredContent and content[] (Codex cuts the JSON it shows past 12,000 bytes, Qwen Code the
// JSON and the content[] texts together past 28,000 characters).
using Shows = tools::ResultView::Shows;
constexpr std::array<NamedQuirks, 4> quirks_table = {{
    {"claude-code", false, ClientQuirks{.result_view = {Shows::structured_only, true}}},
    {"codex-mcp-client", false,
     ClientQuirks{
         .form_feedback_field = false, .result_text_budget = 9000, .result_view = {Shows::structured_only, true}}},
    {"gemini-cli-mcp-client", false, ClientQuirks{.result_view = {Shows::unknown, true}}},
    {"qwen-cli-mcp-client", true,
     ClientQuirks{.result_text_budget = 10000, .result_view = {Shows::both, true}, .renders_view = false}},
}};

const Json* object_member(const Json& object, std::string_view key) {
    if (!object.is_object()) return nullptr;
    const auto it = object.find(std::string(key));
    return it != object.end() && it->is_object() ? &*it : nullptr;
}

std::string name_of(const Json* client_info) {
    if (!client_info) return "";
    const auto name = client_info->find("name");
    return name != client_info->end() && name->is_string() ? name->get<std::string>() : "";
}

}  // namespace

ClientQuirks quirks_of(std::string_view client_name) {
    for (const auto& entry : quirks_table)
        if (entry.prefix ? client_name.substr(0, entry.client_name.size()) == entry.client_name
                         : client_name == entry.client_name)
            return entry.quirks;
    return {};
}

RequestEnvelope read_envelope(Json& params) {
    RequestEnvelope envelope;
    if (!params.is_object()) return envelope;
    if (const Json* meta = object_member(params, "_meta")) {
        if (const auto v = meta->find(std::string(protocol::meta_protocol_version)); v != meta->end() && v->is_string())
            envelope.requested_modern_version = v->get<std::string>();
        if (const Json* caps = object_member(*meta, protocol::meta_client_capabilities)) envelope.capabilities = *caps;
        envelope.client_name = name_of(object_member(*meta, protocol::meta_client_info));
        if (const auto token = meta->find("progressToken");
            token != meta->end() && (token->is_string() || token->is_number_integer()))
            envelope.progress_token = *token;
    }
    if (const auto state = params.find("requestState"); state != params.end() && state->is_string())
        envelope.request_state = std::move(state->get_ref<std::string&>());
    if (const auto responses = params.find("inputResponses"); responses != params.end() && responses->is_object())
        if (const auto approval = responses->find("approval"); approval != responses->end())
            envelope.approval_response = std::move(*approval);
    return envelope;
}

void complete_envelope(RequestEnvelope& envelope, protocol::Era era, const std::string& version,
                       const Json& legacy_capabilities, const Json& legacy_client_info) {
    envelope.era = era;
    envelope.version = version;
    if (era != protocol::Era::modern) {
        envelope.capabilities = legacy_capabilities;
        envelope.client_name = name_of(legacy_client_info.is_object() ? &legacy_client_info : nullptr);
    }
    envelope.quirks = quirks_of(envelope.client_name);
    if (!envelope.quirks.renders_view)
        if (const auto extensions = envelope.capabilities.find("extensions");
            extensions != envelope.capabilities.end() && extensions->is_object())
            extensions->erase("io.modelcontextprotocol/ui");
}

}  // namespace server
