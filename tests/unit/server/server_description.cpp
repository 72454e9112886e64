// What the server says about itself: the tool list's approval note follows policy and client.
#include <doctest/doctest.h>

#include "server/server_description.hpp"

using Json = nlohmann::json;

namespace {

std::string edit_description(const server::Config& config, const Json& capabilities) {
    const tools::Registry registry;
    server::RequestEnvelope envelope;  // a legacy client's tools/list
    envelope.era = protocol::Era::legacy;
    envelope.capabilities = capabilities;
    const Json list = server::tools_list_result(config, registry, envelope);
    for (const auto& t : list["tools"])
        if (t["name"] == "edit") return t["description"].get<std::string>();
    return "";
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE("server description: each mutating tool says whether the user will be asked") {
    server::Config config;
    CHECK(ends_with(edit_description(config, {{"elicitation", Json::object()}}), "written only if they approve it."));
    CHECK(ends_with(edit_description(config, Json::object()), "the result carries the diff."));
    config.approval = server::ApprovalPolicy::require;
    CHECK(ends_with(edit_description(config, Json::object()), "use dry_run to propose them."));
    config.approval = server::ApprovalPolicy::automatic;
    CHECK(ends_with(edit_description(config, {{"elicitation", Json::object()}}), "(server policy --approval auto)."));
}

TEST_CASE("server description: misconfiguration leads the instructions; 2026-07-28 has no logging capability") {
    server::Config config;
    config.misconfiguration = "mcp-edit is misconfigured: x.";
    CHECK(server::instructions(config).rfind("mcp-edit is misconfigured: x.\n\n", 0) == 0);
    CHECK(server::discover_result(config)["instructions"] == server::instructions(config));
    CHECK(server::server_capabilities(protocol::Era::legacy).contains("logging"));
    CHECK_FALSE(server::server_capabilities(protocol::Era::modern).contains("logging"));
}
