// Unit tests of how a tool defines itself (tools/tool_definition.hpp, tools/catalog.hpp): every
// served tool's arguments struct and schema agree (the registry refuses to load otherwise); a tool
// defined in one file (here a fixture tool, `append`, with its schema inline) is served, checked,
// run and described by its traits with nothing else touched; and the places people read the tools
// from (the .mcpb manifest, the README's table) cannot drift from the definitions.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>

#include "server/server_description.hpp"
#include "server/tool_call.hpp"
#include "tests/unit/tools/fixture.hpp"
#include "tools/catalog.hpp"
#include "tools/pipeline/change.hpp"
#include "tools/handlers/edit.hpp"
#include "tools/workbench.hpp"

using namespace tools_test;

namespace {

std::set<std::string> keys_of(const Json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items()) out.insert(key);
    return out;
}

// --- The fixture tool: everything a tool is, in this one place. ---------------------------------

struct AppendArgs {
    std::string file_path;
    std::string text;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AppendArgs, file_path, text, dry_run)

asio::awaitable<tools::ToolResult> run_append(tools::CallContext& ctx, AppendArgs args) {
    tools::ChangeRequest request("append", std::move(args.file_path), args.dry_run);
    request.planner = [text = std::move(args.text)](const tools::FileSnapshot& before,
                                                    const std::string&) -> base::Result<tools::Plan> {
        tools::Plan plan;
        plan.new_bytes = before.file.bytes + text;
        return plan;
    };
    co_return co_await tools::run_change(ctx, std::move(request));
}

constexpr const char* append_schema = R"({
  "title": "Append text",
  "description": "Append text to the end of a file.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "file_path": {"type": "string"},
      "text": {"type": "string"},
      "dry_run": {"type": "boolean"}
    },
    "required": ["file_path", "text"],
    "additionalProperties": false
  },
  "annotations": {"title": "Append text", "readOnlyHint": false, "destructiveHint": true,
                  "idempotentHint": false, "openWorldHint": false}
})";

const tools::ToolSpec& append_tool() {
    static const tools::ToolSpec spec = [] {
        tools::ToolSpec s = tools::define_tool("append", &run_append,
                                               {
                                                   .kind = tools::ToolKind::change,
                                                   .safety_arguments = "`dry_run` (or `preview`)",
                                                   .summary = "Append text to a file",
                                               });
        s.schema = append_schema;
        return s;
    }();
    return spec;
}

std::string source_file(const std::string& relative) {
    std::ifstream in(std::string(MCP_EDIT_SOURCE_DIR) + "/" + relative, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot read " << relative);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("tool definitions: every served tool's schema properties are the fields of its arguments struct") {
    // The registry refuses, when it loads, a tool whose struct and schema disagree: every served
    // tool passed that check.
    std::unique_ptr<tools::Registry> registry;
    CHECK_NOTHROW(registry = std::make_unique<tools::Registry>());
    REQUIRE(registry);
    CHECK(registry->names().size() == tools::served_tools().size());
    // The check itself: equal sets pass; a difference names both sides' extra names.
    const Json& edit_schema = registry->list().at(1).at("inputSchema");
    REQUIRE(registry->list().at(1).at("name") == "edit");
    CHECK(tools::Registry::fields_mismatch(edit_schema, tools::edit_tool().fields) == "");
    const std::string wrong = tools::Registry::fields_mismatch(edit_schema, tools::move_tool().fields);
    CHECK(wrong.find("in the schema only: ") != std::string::npos);
    CHECK(wrong.find("old_string") != std::string::npos);
    CHECK(wrong.find("in the arguments struct only: from, overwrite, to") != std::string::npos);
    // A spec whose struct lacks a schema property is a load failure, named.
    tools::ToolSpec broken = tools::define_tool(
        "edit", &run_append, {.kind = tools::ToolKind::change, .safety_arguments = "", .summary = ""});
    const tools::Registry refusing({&broken});
    CHECK_THROWS_WITH(refusing.ready(),
                      doctest::Contains("schemas/edit.json and the tool's arguments struct disagree"));
}

TEST_CASE("tool definitions: multiedit's edit items in the schema are the fields of OneEdit") {
    const tools::Registry registry;
    for (const Json& tool : registry.list()) {
        if (tool.at("name") != "multiedit") continue;
        CHECK(keys_of(tool.at("inputSchema").at("properties").at("edits").at("items").at("properties")) ==
              keys_of(Json(tools::OneEdit{})));
        return;
    }
    FAIL("multiedit is not served");
}

TEST_CASE("tool definitions: a tool defined in one file is served, checked, run and described by its traits") {
    Fixture f;
    f.put("a.txt", "one\n");
    const tools::Registry registry({&tools::read_tool(), &append_tool()});

    // Listed after read, with its own schema and the name.
    REQUIRE(registry.list().size() == 2);
    CHECK(registry.list().at(1).at("name") == "append");
    CHECK(registry.list().at(1).at("title") == "Append text");
    // tools/list: a tool that changes files says how changes are approved and names the view.
    server::Config config;
    server::RequestEnvelope envelope;
    const Json listed = server::tools_list_result(config, registry, envelope).at("tools");
    REQUIRE(listed.size() == 2);
    CHECK(listed.at(1).at("description").get<std::string>().find("Append text to the end of a file.") == 0);
    CHECK(listed.at(1).at("description").get<std::string>().size() >
          std::string("Append text to the end of a file.").size());
    CHECK(listed.at(1).contains("_meta"));
    CHECK_FALSE(listed.at(0).contains("_meta"));

    tools::WorkbenchSettings settings;
    settings.fsync = false;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, settings);
    // Its schema validates: a missing required argument names what it takes.
    const auto missing = run_call(f.io, bench.call("append", {{"file_path", f.path("a.txt")}}, {}));
    REQUIRE(missing.is_error);
    CHECK(missing.reason == base::ErrorReason::invalid_arguments);
    CHECK(missing.text.find("at /text: missing (required)") != std::string::npos);
    CHECK(missing.text.find("append takes: dry_run (boolean), file_path (string, required), text (string, required)") !=
          std::string::npos);
    // Its traits: an unknown argument that speaks of safety is refused, naming its safety arguments;
    // another agent's `preview` is read as its dry_run.
    const auto unsafe =
        run_call(f.io, bench.call("append", {{"file_path", f.path("a.txt")}, {"text", "x\n"}, {"verify", true}}, {}));
    REQUIRE(unsafe.is_error);
    CHECK(unsafe.text.find("append honours `dry_run` (or `preview`)") != std::string::npos);
    const auto preview =
        run_call(f.io, bench.call("append", {{"file_path", f.path("a.txt")}, {"text", "x\n"}, {"preview", true}}, {}));
    REQUIRE_MESSAGE(!preview.is_error, preview.text);
    CHECK(preview.structured.at("dry_run") == true);
    CHECK(f.get("a.txt") == "one\n");
    // Run: the change pipeline writes it, and the ledger records it.
    const tools::CallOutcome appended =
        run_to_end(f.io, bench.call("append", {{"file_path", f.path("a.txt")}, {"text", "two\n"}}, {}));
    const tools::ToolResult& done = appended.result;
    REQUIRE_MESSAGE(!done.is_error, done.text);
    CHECK(appended.tool == "append");
    CHECK(appended.kind == tools::ToolKind::change);
    CHECK(f.get("a.txt") == "one\ntwo\n");
    REQUIRE(bench.history().latest(f.path("a.txt")) != nullptr);
    CHECK(bench.history().latest(f.path("a.txt"))->tool == "append");
    // A result too large to send says the change was written (its kind: change).
    const auto facts = server::oversized_facts(appended.tool, appended.kind, done);
    CHECK(facts.written);
    const Json oversized = server::oversized_result(facts, 64u << 20, 32u << 20, protocol::Era::legacy);
    CHECK(oversized.at("content").at(0).at("text").get<std::string>().find(
              "The append was applied and written to disk") == 0);
}

TEST_CASE("tool definitions: the .mcpb manifest and the README's table list the served tools, with their summaries") {
    const tools::Registry registry;
    std::vector<std::string> model_tools;  // every tool a model is served (review is the view's alone)
    for (const tools::ToolSpec* spec : registry.specs())
        if (spec->traits.kind != tools::ToolKind::review_decision) model_tools.push_back(spec->name);

    const Json manifest = Json::parse(source_file("packaging/mcpb/manifest.json"));
    std::vector<std::string> in_manifest;
    for (const Json& t : manifest.at("tools")) {
        in_manifest.push_back(t.at("name").get<std::string>());
        for (const tools::ToolSpec* spec : registry.specs())
            if (spec->name == in_manifest.back())
                CHECK_MESSAGE(t.at("description") == std::string(spec->traits.summary),
                              "packaging/mcpb/manifest.json: the description of "
                                  << spec->name << " is not its summary in tools/" << spec->name << ".cpp");
    }
    CHECK_MESSAGE(in_manifest == model_tools, "packaging/mcpb/manifest.json lists other tools than the server serves");

    // The README's table of tools: one row per tool, "| `name` | arguments | does |", in order.
    const std::string readme = source_file("README.md");
    std::vector<std::string> in_readme;
    const std::regex row(R"(\n\| `([a-z_]+)` \| [^\n]*\|[^\n]*\|)");
    const auto table = readme.find("| tool | arguments | does |");
    REQUIRE_MESSAGE(table != std::string::npos, "README.md has no table of tools");
    const auto table_end = readme.find("\n\n", table);
    const std::string rows = readme.substr(table, table_end - table);
    for (std::sregex_iterator it(rows.begin(), rows.end(), row), end; it != end; ++it) in_readme.push_back((*it)[1]);
    CHECK_MESSAGE(in_readme == model_tools, "README.md's table of tools lists other tools than the server serves");
}
