// Unit tests of the Workbench driven directly, with no protocol and no session: calls run in a
// CallScope (approval, progress, placement), and the ledger the workbench owns records them.
#include <doctest/doctest.h>

#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>

#include "ledger/fingerprint.hpp"
#include "tests/unit/tools/fixture.hpp"
#include "tools/workbench.hpp"

using namespace tools_test;

namespace {

// A scope whose approval records what it was asked (the call's tool, the request's tool and
// path) and approves as the user; placement: alone.
tools::CallScope recording_scope(std::vector<std::string>& asked) {
    tools::CallScope scope;
    scope.alone = [] { return true; };
    scope.approval = [&asked](const std::string& called, const Json&, const tools::ProgressReport&,
                              std::shared_ptr<const os::Workspace>) {
        return tools::ApprovalGate(
            [&asked, tool = called](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
                asked.push_back(tool + " asks " + ask.tool + " of " + (ask.paths.empty() ? "?" : ask.paths.front()));
                tools::ApprovalDecision d;
                d.kind = tools::ApprovalDecision::Kind::approved;
                d.approval = tools::ApprovalSource::user;
                co_return d;
            });
    };
    return scope;
}

}  // namespace

TEST_CASE("workbench: read and edit through call(tool, arguments, scope); the ledger records the change") {
    Fixture f;  // the root and io_context; its own file states and lanes stay unused
    f.put("a.txt", "one\ntwo\nthree\n");
    const tools::Registry registry;
    tools::WorkbenchSettings settings;
    settings.fsync = false;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, settings);
    const std::string real_path = f.path("a.txt");
    std::vector<std::string> asked;

    // read: the numbered text, and the file's state recorded for this session.
    const tools::ToolResult read =
        run_call(f.io, bench.call("read", {{"file_path", real_path}}, recording_scope(asked)));
    REQUIRE_FALSE(read.is_error);
    CHECK(has(read.text, "     2\ttwo"));
    CHECK(read.structured.at("total_lines") == 3);
    CHECK(bench.file_states().known_hash(real_path) == ledger::Fingerprint::of("one\ntwo\nthree\n"));
    CHECK(asked.empty());
    CHECK(bench.changed_files().empty());

    // edit, with an alias the workbench maps (`path`): approved through the scope, written, recorded.
    const tools::ToolResult edit =
        run_call(f.io, bench.call("edit", {{"path", real_path}, {"old_string", "two"}, {"new_string", "TWO"}},
                                  recording_scope(asked)));
    REQUIRE_FALSE(edit.is_error);
    CHECK(edit.structured.at("approval") == "user");
    CHECK(edit.structured.at("additions") == 1);
    CHECK(f.get("a.txt") == "one\nTWO\nthree\n");
    REQUIRE(asked.size() == 1);
    CHECK(asked[0] == "edit asks edit of a.txt");
    const auto files = bench.changed_files();
    REQUIRE(files.size() == 1);
    CHECK(files[0].real_path == real_path);
    CHECK(files[0].changes == 1);
    const auto latest = bench.history().latest(real_path);
    REQUIRE(latest != nullptr);
    CHECK(latest->tool == "edit");
    CHECK(bench.file_states().known_hash(real_path) == ledger::Fingerprint::of("one\nTWO\nthree\n"));

    // The resources' view waits for nothing now and sees the same change.
    std::optional<std::vector<ledger::SessionChanges::File>> settled;
    asio::co_spawn(f.io, bench.settled_changes(real_path),
                   [&settled](std::exception_ptr error, std::vector<ledger::SessionChanges::File> got) {
                       if (error) std::rethrow_exception(error);
                       settled = std::move(got);
                   });
    f.io.restart();
    f.io.run();
    REQUIRE(settled.has_value());
    CHECK(settled->size() == 1);
}

TEST_CASE("workbench: an unknown tool, and arguments the schema refuses, are error results; nothing runs") {
    Fixture f;
    f.put("a.txt", "one\n");
    const tools::Registry registry;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, {});
    std::vector<std::string> asked;

    const tools::ToolResult unknown =
        run_call(f.io, bench.call("frobnicate", {{"file_path", f.path("a.txt")}}, recording_scope(asked)));
    CHECK(unknown.is_error);
    CHECK(unknown.reason == base::ErrorReason::invalid_arguments);
    CHECK(has(unknown.text, "Unknown tool: frobnicate. Available tools: read, edit"));

    const tools::ToolResult missing =
        run_call(f.io, bench.call("edit", {{"file_path", f.path("a.txt")}}, recording_scope(asked)));
    CHECK(missing.is_error);
    CHECK(has(missing.text, "old_string"));
    CHECK(asked.empty());
    CHECK(bench.changed_files().empty());
    CHECK(f.get("a.txt") == "one\n");
}

TEST_CASE("workbench: a scope's result budget makes read page a file its host would cut") {
    Fixture f;
    std::string content;
    for (int i = 1; i <= 500; ++i) content += "line number " + std::to_string(i) + " of a file a host would cut\n";
    f.put("long.txt", content);
    const tools::Registry registry;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, {});
    std::vector<std::string> asked;

    const tools::ToolResult whole =
        run_call(f.io, bench.call("read", {{"file_path", f.path("long.txt")}}, recording_scope(asked)));
    REQUIRE_FALSE(whole.is_error);
    CHECK(whole.structured.at("truncated") == false);
    CHECK(whole.structured.at("end_line") == 500);

    tools::CallScope budgeted = recording_scope(asked);
    budgeted.max_result_text = 4000;
    const tools::ToolResult paged =
        run_call(f.io, bench.call("read", {{"file_path", f.path("long.txt")}}, std::move(budgeted)));
    REQUIRE_FALSE(paged.is_error);
    CHECK(paged.structured.at("truncated") == true);
    const int end_line = paged.structured.at("end_line").get<int>();
    CHECK(end_line > 50);
    CHECK(end_line < 500);
    CHECK(paged.structured.at("text").get<std::string>().size() <= 4000);
    CHECK(has(paged.text, std::to_string(end_line) + "\tline number " + std::to_string(end_line) + " of"));
    CHECK_FALSE(has(paged.text, "line number " + std::to_string(end_line + 1) + " of"));
}
