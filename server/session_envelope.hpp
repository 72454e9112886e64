// A request's envelope read once into one value (era, version, client, capabilities, progress
// token, requestState, inputResponses), and the per-client quirks in one table.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/versions.hpp"
#include "tools/result_view.hpp"

namespace server {

// What differs by client beyond its declared capabilities, found by its clientInfo.name.
struct ClientQuirks {
    // Codex shows fields in name order and cannot submit a form whose last field, a text, is
    // empty: for it the approval form has no feedback field.
    bool form_feedback_field = true;
    // The host cuts what it shows its model past a size (Codex 0.169: 12,000 bytes of the
    // structuredContent JSON for a model it does not know, head and tail kept, the middle dropped;
    // Qwen Code 0.24: 28,000 characters of structuredContent JSON plus the content[] texts, else a
    // 2,000-character preview): results then carry at most this many bytes of text, so that `read`
    // pages (`truncated: true`, the next offset) and lists and searches count the rest, instead
    // of the host dropping part of a result that says it is whole. 0: the server's own limit.
    std::size_t result_text_budget = 0;
    // What the client shows its model of a result: where `read` puts its numbered text.
    tools::ResultView result_view{};
    // The client renders the MCP Apps views it declares (io.modelcontextprotocol/ui). Qwen Code
    // 0.24 declares them on every connection, but its terminal and headless runs show a view's
    // fallback text only: no Apply could ever be pressed there, so it is served as a client that
    // renders none (its declaration is taken out of the request's capabilities).
    bool renders_view = true;
};
// The quirks of the client called `client_name` (defaults for a client the table does not name).
ClientQuirks quirks_of(std::string_view client_name);

// Everything the session needs from a request besides its method and tool arguments: read from
// params (and its _meta) once, completed with what the connection knows (a legacy client's
// initialize), and handed to whatever serves the request.
struct RequestEnvelope {
    protocol::Era era = protocol::Era::undecided;            // the era the request is served in
    std::string version;                                     // the protocol revision (negotiated, or from _meta)
    std::optional<std::string> requested_modern_version;     // _meta's protocolVersion, as sent
    nlohmann::json capabilities = nlohmann::json::object();  // the client's
    std::string client_name;                                 // clientInfo.name ("" when not given)
    ClientQuirks quirks;                                     // of client_name
    std::optional<nlohmann::json> progress_token;            // _meta.progressToken: a string or an integer
    std::optional<std::string> request_state;                // 2026-07-28: the echoed requestState
    std::optional<nlohmann::json> approval_response;         // 2026-07-28: inputResponses.approval

    bool modern() const { return era == protocol::Era::modern; }
};

// Reads the per-request parts of `params` (requestState and inputResponses are moved out); the
// era, version, and a legacy client's capabilities and name are the session's to fill in (see
// complete_envelope).
RequestEnvelope read_envelope(nlohmann::json& params);
// Completes `envelope` for `era`: modern requests keep what their _meta says, legacy ones take
// what the client said in initialize.
void complete_envelope(RequestEnvelope& envelope, protocol::Era era, const std::string& version,
                       const nlohmann::json& legacy_capabilities, const nlohmann::json& legacy_client_info);

}  // namespace server
