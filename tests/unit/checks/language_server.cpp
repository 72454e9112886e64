// Unit tests of the LSP client behind --lsp, against tests/fake_lsp (a server that reports every
// "ERROR:" and "WARNING:" line): both images told in order, a versionless server that publishes
// twice, the server's own requests answered, a server that says nothing (bounded wait), one that
// dies (restarted, then given up), one that cannot start, cancellation; and through the tools, the
// result's checks entry. Runs on Linux and under Wine.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/unit/tools/checks_fixture.hpp"
#include "checks/language_server.hpp"

using namespace tools_test;
using namespace std::chrono_literals;
using checks::LanguageServer;

namespace {

std::string fake_lsp() {
    std::string path = MCP_EDIT_FAKE_LSP;
#ifdef _WIN32
    if (path.starts_with('/')) path = "Z:" + path;  // Wine shows this machine's files on drive Z:
#endif
    return path;
}

std::vector<std::string> fake(std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), fake_lsp());
    return flags;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> messages(const std::vector<checks::Diagnostic>& found) {
    std::vector<std::string> out;
    for (const auto& d : found)
        out.push_back(d.severity + " " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message);
    return out;
}

checks::LanguageServer::Clock::time_point in(std::chrono::milliseconds ms) {
    return checks::LanguageServer::Clock::now() + ms;
}

// A fixture whose calls tell the given --lsp servers of each change.
struct WithServers : WithChecks {
    explicit WithServers(const std::vector<std::string>& specs, std::chrono::milliseconds timeout = 10s)
        : WithChecks(settings({}, specs, timeout)) {}
};

}  // namespace

TEST_CASE("language server: the file before and after the change, in order; the known pre-image is not sent again") {
    Fixture dir;
    const std::string log = dir.path("log");
    checks::LanguageServer server(fake({"--log", log}), dir.root.generic_string());
    const std::string before = "int a;\nERROR: old\n";
    const std::string after = "int a;\nWARNING: unused\nERROR: old\n";
    auto first = server.diagnose(dir.path("x.c"), &before, after, in(10s), nullptr);
    REQUIRE(first.ok());
    CHECK(first->compared);
    CHECK(messages(first->before) == std::vector<std::string>{"error 2:1 old"});
    CHECK(messages(first->after) == std::vector<std::string>{"warning 2:1 unused", "error 3:1 old"});
    CHECK(first->after[1].line_text == "ERROR: old");  // for comparing across shifted lines

    const std::string again = "int a;\n";
    auto second = server.diagnose(dir.path("x.c"), &after, again, in(10s), nullptr);
    REQUIRE(second.ok());
    CHECK(messages(second->before) == messages(first->after));
    CHECK(second->after.empty());

    auto created = server.diagnose(dir.path("new.c"), nullptr, "ERROR: fresh\n", in(10s), nullptr);
    REQUIRE(created.ok());
    CHECK_FALSE(created->compared);
    CHECK(messages(created->after) == std::vector<std::string>{"error 1:1 fresh"});
    // One start; x.c opened with its pre-image, changed once per change; new.c opened once.
    CHECK(slurp(log) ==
          "initialize\ninitialized\ntextDocument/didOpen\ntextDocument/didChange\ntextDocument/didChange\n"
          "textDocument/didOpen\n");
}

TEST_CASE(
    "language server: a server that gives no versions and publishes an empty set first is read after it settles") {
    Fixture dir;
    checks::LanguageServer server(fake({"--no-version", "--empty-first"}), dir.root.generic_string());
    const std::string before = "x\n";
    auto found = server.diagnose(dir.path("a.py"), &before, "ERROR: late\n", in(10s), nullptr);
    REQUIRE(found.ok());
    CHECK(found->before.empty());
    CHECK(messages(found->after) == std::vector<std::string>{"error 1:1 late"});
}

TEST_CASE("language server: the server's own requests (configuration, progress) are answered, so it goes on") {
    Fixture dir;
    const std::string log = dir.path("log");
    checks::LanguageServer server(fake({"--ask", "--log", log}), dir.root.generic_string());
    auto found = server.diagnose(dir.path("a.c"), nullptr, "WARNING: w\n", in(10s), nullptr);
    REQUIRE(found.ok());
    CHECK(messages(found->after) == std::vector<std::string>{"warning 1:1 w"});
    const std::string text = slurp(log);
    std::size_t answers = 0;
    for (std::size_t at = 0; (at = text.find("(answer)\n", at)) != std::string::npos; ++at) ++answers;
    CHECK(answers == 2);
}

TEST_CASE("language server: a server that never publishes is waited for until the deadline, and says so") {
    Fixture dir;
    checks::LanguageServer server(fake({"--silent"}), dir.root.generic_string());
    const auto start = checks::LanguageServer::Clock::now();
    // The deadline also covers starting the server and its initialize answer: long enough for a
    // slow start (a first start under Wine takes over 300 ms), so what runs out is the publish wait.
    auto found = server.diagnose(dir.path("a.c"), nullptr, "x\n", in(3s), nullptr);
    const auto waited = checks::LanguageServer::Clock::now() - start;
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().timed_out);
    CHECK(found.error().started);
    CHECK(found.error().message == "it did not publish diagnostics in time");
    CHECK(waited >= 3s);
    CHECK(waited < 15s);
}

TEST_CASE("language server: a server that stops reading does not hold the call past its deadline, nor the end") {
    Fixture dir;
    const auto start = checks::LanguageServer::Clock::now();
    {
        checks::LanguageServer server(fake({"--deaf"}), dir.root.generic_string());
        const std::string big(4u << 20, 'x');  // far more than a pipe holds
        auto found = server.diagnose(dir.path("a.c"), &big, big + "y", in(500ms), nullptr);
        REQUIRE_FALSE(found.ok());
        CHECK(found.error().timed_out);
        CHECK(checks::LanguageServer::Clock::now() - start < 3s);
    }  // shutdown is queued behind what it never read; it is killed after the grace
    CHECK(checks::LanguageServer::Clock::now() - start < 5s);
}

TEST_CASE("language server: a slow first start is waited for again by the next call, not started twice") {
    Fixture dir;
    const std::string log = dir.path("log");
    checks::LanguageServer server(fake({"--slow-init-ms", "1000", "--log", log}), dir.root.generic_string());
    auto early = server.diagnose(dir.path("a.c"), nullptr, "ERROR: e\n", in(200ms), nullptr);
    REQUIRE_FALSE(early.ok());
    CHECK(early.error().timed_out);
    CHECK(early.error().message == "it did not answer initialize in time");
    auto later = server.diagnose(dir.path("a.c"), nullptr, "ERROR: e\n", in(10s), nullptr);
    REQUIRE(later.ok());
    CHECK(messages(later->after) == std::vector<std::string>{"error 1:1 e"});
    CHECK(slurp(log) == "initialize\ninitialized\ntextDocument/didOpen\n");
}

TEST_CASE("language server: a server that dies is started again, and given up after three starts") {
    Fixture dir;
    const std::string log = dir.path("log");
    checks::LanguageServer server(fake({"--exit-on-change", "--log", log}), dir.root.generic_string());
    const std::string before = "a\n";
    for (int start = 1; start <= checks::LanguageServer::max_starts; ++start) {
        CAPTURE(start);
        auto found = server.diagnose(dir.path("a.c"), &before, "b\n", in(10s), nullptr);
        REQUIRE_FALSE(found.ok());
        CHECK(found.error().message.starts_with("it ended before it could publish diagnostics ("));
    }
    auto given_up = server.diagnose(dir.path("a.c"), &before, "b\n", in(10s), nullptr);
    REQUIRE_FALSE(given_up.ok());
    CHECK_FALSE(given_up.error().started);
    CHECK(given_up.error().message.starts_with("it was started 3 times and ended each time; not started again"));
    std::string text = slurp(log);
    std::size_t starts = 0;
    for (std::size_t at = 0; (at = text.find("initialize\n", at)) != std::string::npos; ++at) ++starts;
    CHECK(starts == 3);
}

TEST_CASE("language server: a program that is not there, and a cancelled call") {
    Fixture dir;
    checks::LanguageServer missing({"mcp-edit-no-such-language-server"}, dir.root.generic_string());
    auto found = missing.diagnose(dir.path("a.c"), nullptr, "x\n", in(5s), nullptr);
    REQUIRE_FALSE(found.ok());
    CHECK_FALSE(found.error().started);
    CHECK(found.error().message.find("mcp-edit-no-such-language-server") != std::string::npos);

    checks::LanguageServer silent(fake({"--silent"}), dir.root.generic_string());
    std::atomic<bool> cancelled{true};
    auto stopped = silent.diagnose(dir.path("a.c"), nullptr, "x\n", in(10s), &cancelled);
    REQUIRE_FALSE(stopped.ok());
    CHECK(stopped.error().cancelled);
}

TEST_CASE("language server through the tools: an edit's result has the server's new and fixed findings") {
    WithServers s({"*.c=" + fake_lsp()});
    s.f.put("m.c", "int a;\nERROR: old\n");
    auto result =
        s.f.call(tools::edit_handler(),
                 {{"file_path", s.f.path("m.c")}, {"old_string", "ERROR: old"}, {"new_string", "ERROR: new"}});
    CHECK_FALSE(result.is_error);
    CHECK(s.f.get("m.c") == "int a;\nERROR: new\n");
    const Json& checks = result.structured["checks"];
    REQUIRE(checks.size() == 1);
    CHECK(checks[0]["language_server"] == true);
    CHECK(checks[0]["exit_code"].is_null());
    CHECK(checks[0]["status"] == "failed");
    CHECK(checks[0]["compared"] == true);
    CHECK(checks[0]["diagnostics"] == Json::array({{{"file", s.f.path("m.c")},
                                                    {"line", 2},
                                                    {"column", 1},
                                                    {"severity", "error"},
                                                    {"message", "new"},
                                                    {"new", true}}}));
    CHECK(checks[0]["fixed"] ==
          Json::array(
              {{{"file", s.f.path("m.c")}, {"line", 2}, {"column", 1}, {"severity", "error"}, {"message", "old"}}}));
    const std::string summary = result.structured["summary"];
    CHECK(has(summary, "(language server) on m.c reported: 1 new error, 1 fixed."));
    CHECK(has(result.text, "Language server `" + fake_lsp() +
                               "` on m.c reported.\nnew error at m.c:2:1: new\n"
                               "fixed error (was at m.c:2:1): old\n"));

    auto dry =
        s.f.call(tools::edit_handler(),
                 {{"file_path", s.f.path("m.c")}, {"old_string", "new"}, {"new_string", "x"}, {"dry_run", true}});
    CHECK_FALSE(dry.structured.contains("checks"));
    s.f.put("notes.txt", "x\n");
    auto other = s.f.call(tools::edit_handler(),
                          {{"file_path", s.f.path("notes.txt")}, {"old_string", "x"}, {"new_string", "y"}});
    CHECK_FALSE(other.structured.contains("checks"));
}

TEST_CASE("--lsp rules: GLOB=COMMAND without {file}") {
    CHECK(checks::CheckRule::parse_language_server("*.c=clangd --log=error").ok());
    auto with_file = checks::CheckRule::parse_language_server("*.c=clangd {file}");
    REQUIRE_FALSE(with_file.ok());
    CHECK(has(with_file.error().message, "its command takes no {file}"));
    auto no_glob = checks::CheckRule::parse_language_server("clangd");
    REQUIRE_FALSE(no_glob.ok());
    CHECK(has(no_glob.error().message, "expected GLOB=COMMAND, e.g. --lsp '*.{c,cc,cpp,h,hpp}=clangd'"));
}
