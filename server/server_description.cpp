// What the server says about itself: its capabilities, its instructions (led by what is wrong with
// its configuration), server/discover's answer, and the tool list with each mutating tool's
// description saying whether this client will be asked before a write.
#include "server/server_description.hpp"

#include "protocol/versions.hpp"
#include "server/approval_gate.hpp"
#include "server/review_view.hpp"

namespace server {

using Json = nlohmann::json;

Json server_capabilities(protocol::Era era) {
    Json caps = {{"tools", {{"listChanged", false}}}};
    if (era == protocol::Era::modern) {
        caps["resources"] = Json::object();  // list and read; 2026-07-28's subscriptions/listen is not served
        // The review view (MCP Apps); 2025-11-25's capabilities have no `extensions`.
        caps["extensions"] = {{"io.modelcontextprotocol/ui", Json::object()}};
    } else {
        caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
        caps["logging"] = Json::object();
    }
    return caps;
}

std::string instructions(const Config& config) {
    std::string text =
        "File tools with exact, byte-preserving edits. Read a file before changing it; every change returns a unified "
        "diff.";
    if (!config.misconfiguration.empty()) text = config.misconfiguration + "\n\n" + text;
    if (config.warnings.empty()) return text;
    text += "\n\nConfiguration problem: ";
    for (std::size_t i = 0; i < config.warnings.size(); ++i) text += (i ? "; " : "") + config.warnings[i];
    return text + ". " + std::string(how_to_fix_arguments);
}

Json discover_result(const Config& config) {
    Json versions = Json::array({std::string(protocol::modern_version)});
    for (auto v : protocol::legacy_versions) versions.push_back(std::string(v));
    return {
        {"resultType", "complete"},
        {"supportedVersions", versions},
        {"capabilities", server_capabilities(protocol::Era::modern)},
        {"instructions", instructions(config)},
        {"ttlMs", 3600000},
        {"cacheScope", "public"},
        {"_meta", {{std::string(protocol::meta_server_info), {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}}}}}};
}

Json tools_list_result(const Config& config, const tools::Registry& registry, const RequestEnvelope& envelope) {
    // Each mutating tool's description says whether this client will be asked before a write.
    const bool view = view_is_gate(config, envelope.capabilities);
    std::string approval_note;
    if (config.approval == ApprovalPolicy::automatic) {
        approval_note = " Changes are written without asking the user (server policy --approval auto).";
    } else if (view) {
        approval_note =
            " Every change is shown to the user as a diff in the review view and written only when they "
            "apply it there: the result says it awaits their review, and their decision reaches you later.";
    } else if (client_can_elicit(envelope.capabilities)) {
        approval_note = " Every change is shown to the user as a diff and written only if they approve it.";
    } else if (config.approval == ApprovalPolicy::require) {
        approval_note =
            " This server requires the user's approval, which this client cannot show: changes will be refused; use "
            "dry_run to propose them.";
    } else {
        approval_note =
            " This client cannot show approval forms, so changes are written at once (server policy --approval ask); "
            "the result carries the diff.";
    }
    // The review view's tools: every change (and `changes`, the session's patch) names the view, for
    // every client; `review`, the view's decision, is for the view alone, and listed only to a
    // client that renders views: any other's model would pay for a tool it can never use.
    const Json view_meta = {{"ui", {{"resourceUri", review_view_uri}}},
                            {"ui/resourceUri", review_view_uri},
                            {"openai/outputTemplate", review_view_uri}};
    Json tools = Json::array();
    const Json& listed = registry.list();
    for (std::size_t i = 0; i < listed.size(); ++i) {
        const tools::ToolKind kind = registry.specs()[i]->traits.kind;
        if (kind == tools::ToolKind::review_decision && !client_renders_view(envelope.capabilities)) continue;
        Json t = listed[i];
        if (kind == tools::ToolKind::review_decision) {
            t["_meta"] = {{"ui", {{"visibility", {"app"}}}}, {"openai/visibility", "private"}};
        } else if (tools::changes_files(kind)) {
            t["description"] = t["description"].get<std::string>() + approval_note;
            t["_meta"] = view_meta;
        } else if (kind == tools::ToolKind::session_patch) {
            t["_meta"] = view_meta;
        }
        tools.push_back(std::move(t));
    }
    Json result = {{"tools", std::move(tools)}};
    if (envelope.modern()) {
        result["resultType"] = "complete";
        result["ttlMs"] = 3600000;
        // The descriptions depend on the client's capabilities (will it be asked?): not shareable.
        result["cacheScope"] = "private";
    }
    return result;
}

}  // namespace server
