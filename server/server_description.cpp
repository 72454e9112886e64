// What the server says about itself: its capabilities, its instructions (led by what is wrong with
// its configuration), server/discover's answer, and the tool list with each mutating tool's
// description saying whether this client will be asked before a write.
#include "server/server_description.hpp"

#include "protocol/versions.hpp"
#include "server/approval_gate.hpp"

namespace server {

using Json = nlohmann::json;

Json server_capabilities(protocol::Era era) {
    Json caps = {{"tools", {{"listChanged", false}}}};
    if (era == protocol::Era::modern) {
        caps["resources"] = Json::object();  // list and read; 2026-07-28's subscriptions/listen is not served
    } else {
        caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
        caps["logging"] = Json::object();
    }
    return caps;
}

std::string instructions(const Config& config) {
    std::string text =
        "File tools with exact, byte-preserving edits. Read a file before changing it; every change returns a unified diff.";
    if (!config.misconfiguration.empty()) text = config.misconfiguration + "\n\n" + text;
    if (config.warnings.empty()) return text;
    text += "\n\nConfiguration problem: ";
    for (std::size_t i = 0; i < config.warnings.size(); ++i) text += (i ? "; " : "") + config.warnings[i];
    return text + ". " + std::string(how_to_fix_arguments);
}

Json discover_result(const Config& config) {
    Json versions = Json::array({std::string(protocol::modern_version)});
    for (auto v : protocol::legacy_versions) versions.push_back(std::string(v));
    return {{"resultType", "complete"},
            {"supportedVersions", versions},
            {"capabilities", server_capabilities(protocol::Era::modern)},
            {"instructions", instructions(config)},
            {"ttlMs", 3600000},
            {"cacheScope", "public"},
            {"_meta", {{std::string(protocol::meta_server_info), {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}}}}}};
}

Json tools_list_result(const Config& config, const tools::Registry& registry, const RequestEnvelope& envelope) {
    // Each mutating tool's description says whether this client will be asked before a write.
    std::string approval_note;
    if (config.approval == ApprovalPolicy::automatic) {
        approval_note = " Changes are written without asking the user (server policy --approval auto).";
    } else if (client_can_elicit(envelope.capabilities)) {
        approval_note = " Every change is shown to the user as a diff and written only if they approve it.";
    } else if (config.approval == ApprovalPolicy::require) {
        approval_note = " This server requires the user's approval, which this client cannot show: changes will be refused; use dry_run to propose them.";
    } else {
        approval_note = " This client cannot show approval forms, so changes are written at once (server policy --approval ask); the result carries the diff.";
    }
    Json tools = registry.list();
    for (auto& t : tools)
        if (t.value("annotations", Json::object()).value("readOnlyHint", false) == false)
            t["description"] = t["description"].get<std::string>() + approval_note;
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
