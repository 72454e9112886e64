// Unit tests of post-write checks through the tools: a check runs after a write (never for a dry
// run or an unchanged file), in the file's folder, on the written bytes and on the pre-image, and
// the result says what the change introduced and fixed; a failing check is not an error; reads and
// changes of the file do not wait for it.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <asio/steady_timer.hpp>

#include "ledger/session_changes.hpp"
#include "tests/unit/tools/checks_fixture.hpp"

using namespace tools_test;
using namespace std::chrono_literals;

namespace {

// A fixture whose calls run the given --check rules on a pool of their own.
struct Checked : WithChecks {
    explicit Checked(const std::vector<std::string>& specs, std::chrono::milliseconds timeout = 10s)
        : WithChecks(settings(specs, {}, timeout)) {}
    tools::ToolResult edit(const std::string& name, const std::string& old_text, const std::string& new_text,
                           bool dry_run = false) {
        return f.call(
            tools::edit_handler(),
            {{"file_path", f.path(name)}, {"old_string", old_text}, {"new_string", new_text}, {"dry_run", dry_run}});
    }
};

}  // namespace

TEST_CASE("checks: a JSON file broken by an edit is reported with a new error; fixing it reports it fixed") {
    Checked c({"*.json=python3 -m json.tool {file}"});
    c.f.put("conf.json", "{\n  \"a\": 1,\n  \"b\": 2\n}\n");
    auto broken = c.edit("conf.json", "\"b\": 2", "\"b\" 2");
    CHECK_FALSE(broken.is_error);
    CHECK(c.f.get("conf.json") == "{\n  \"a\": 1,\n  \"b\" 2\n}\n");  // written either way
    const Json& checks = broken.structured["checks"];
    REQUIRE(checks.size() == 1);
    CHECK(checks[0]["command"] == "python3 -m json.tool {file}");
    CHECK(checks[0]["file"] == c.f.path("conf.json"));
    CHECK(checks[0]["exit_code"] == 1);
    CHECK(checks[0]["status"] == "failed");
    CHECK(checks[0]["compared"] == true);
    REQUIRE(checks[0]["diagnostics"].size() == 1);
    CHECK(checks[0]["diagnostics"][0] == Json{{"file", c.f.path("conf.json")},
                                              {"line", 3},
                                              {"column", 7},
                                              {"severity", "error"},
                                              {"message", "Expecting ':' delimiter"},
                                              {"new", true}});
    CHECK(checks[0]["fixed"].empty());
    const std::string summary = broken.structured["summary"];
    CHECK(has(summary,
              "The change is written; its check (they report, they never undo it): `python3 -m json.tool {file}` on "
              "conf.json failed (exit 1): 1 new error."));
    CHECK(
        has(broken.text,
            "new error at conf.json:3:7: Expecting ':' delimiter\nOutput:\nExpecting ':' delimiter: line 3 column 7"));

    auto fixed = c.edit("conf.json", "\"b\" 2", "\"b\": 3");
    const Json& again = fixed.structured["checks"][0];
    CHECK(again["exit_code"] == 0);
    CHECK(again["diagnostics"].empty());
    REQUIRE(again["fixed"].size() == 1);
    CHECK(again["fixed"][0]["message"] == "Expecting ':' delimiter");
    CHECK(has(fixed.structured["summary"].get<std::string>(), "on conf.json passed: nothing new, 1 fixed."));
}

TEST_CASE("checks: findings already there before the change are not new, though their line moved") {
    Checked c(
        {"*.c=sh -c 'grep -n TODO \"$1\" | sed \"s/^\\([0-9]*\\):.*/$(basename $1):\\1:1: warning: TODO left/\"; true' "
         "sh {file}"});
    c.f.put("a.c", "int a; // TODO\nint b;\n");
    auto r = c.edit("a.c", "int a;", "int z;\nint y; // TODO\nint a;");
    const Json& check = r.structured["checks"][0];
    REQUIRE(check["diagnostics"].size() == 2);
    // The old TODO is now on line 3 (its line text is unchanged), the new one on line 2.
    CHECK(check["diagnostics"][0]["line"] == 2);
    CHECK(check["diagnostics"][0]["new"] == true);
    CHECK(check["diagnostics"][1]["line"] == 3);
    CHECK(check["diagnostics"][1]["new"] == false);
    CHECK(
        has(r.structured["summary"].get<std::string>(), "passed: 1 new warning (1 already there before the change)."));
}

TEST_CASE("checks: not run for a dry run, an unchanged file, or a file no glob matches") {
    Checked c({"*.json=python3 -m json.tool {file}"});
    c.f.put("conf.json", "{}\n");
    c.f.put("notes.txt", "x\n");
    CHECK_FALSE(c.edit("conf.json", "{}", "{", true).structured.contains("checks"));
    CHECK_FALSE(c.edit("notes.txt", "x", "y").structured.contains("checks"));
    CHECK(c.edit("conf.json", "{}", "[]").structured["checks"][0]["status"] == "passed");
}

TEST_CASE("checks: a created file has no pre-image; the check runs in the file's folder") {
    Checked c({"sub/*=sh -c 'pwd; exit 2'"});
    auto r = c.f.call(tools::write_handler(), {{"file_path", c.f.path("sub/new.txt")}, {"content", "x\n"}});
    CHECK_FALSE(r.is_error);
    const Json& check = r.structured["checks"][0];
    CHECK(check["compared"] == false);
    CHECK(check["exit_code"] == 2);
    CHECK(check["output"] == c.f.path("sub") + "\n");
    CHECK(has(r.structured["summary"].get<std::string>(), "on sub/new.txt failed (exit 2)."));
}

TEST_CASE("checks: a check that times out is killed and reported; a missing program is reported") {
    Checked c({"*.txt=sh -c 'sleep 30' {file}", "*.txt=mcp-edit-no-such-checker {file}"}, 300ms);
    c.f.put("a.txt", "x\n");
    const auto start = std::chrono::steady_clock::now();
    auto r = c.edit("a.txt", "x", "y");
    CHECK(std::chrono::steady_clock::now() - start < 5s);
    CHECK_FALSE(r.is_error);
    CHECK(c.f.get("a.txt") == "y\n");
    const Json& checks = r.structured["checks"];
    REQUIRE(checks.size() == 2);
    CHECK(checks[0]["timed_out"] == true);
    CHECK(checks[0]["exit_code"].is_null());
    CHECK(checks[1]["exit_code"].is_null());
    CHECK(has(checks[1]["error"].get<std::string>(), "cannot start mcp-edit-no-such-checker"));
    const std::string summary = r.structured["summary"];
    CHECK(has(summary, "`sh -c 'sleep 30' {file}` on a.txt timed out after 0."));
    CHECK(has(summary, " s and was killed;"));
    CHECK(has(summary, "could not start (cannot start mcp-edit-no-such-checker"));
}

TEST_CASE("checks: a read of a file under a slow check returns at once with the committed bytes; a change waits") {
    Checked c({"*.txt=sh -c 'sleep 1' sh {file}"});
    c.f.put("a.txt", "one\ntwo\n");
    std::vector<std::string> log;
    std::optional<tools::ToolResult> change, read_in_line, read_later, second_change;
    const auto start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::duration read_took{};
    c.f.start(tools::edit_handler(), {{"file_path", c.f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}},
              change, &log, "change done");
    c.f.start(tools::read_handler(), {{"file_path", c.f.path("a.txt")}}, read_in_line, &log, "read 1 done");
    c.f.start(tools::edit_handler(), {{"file_path", c.f.path("a.txt")}, {"old_string", "one"}, {"new_string", "ONE"}},
              second_change, &log, "change 2 done");
    asio::steady_timer later(c.f.io, 200ms);
    later.async_wait([&](std::error_code) {
        c.f.start(tools::read_handler(), {{"file_path", c.f.path("a.txt")}}, read_later, &log, "read 2 done");
    });
    asio::steady_timer probe(c.f.io, 600ms);
    probe.async_wait([&](std::error_code) {
        if (read_later) read_took = std::chrono::steady_clock::now() - start;
    });
    c.f.io.run();
    REQUIRE(change.has_value());
    CHECK_FALSE(change->is_error);
    CHECK(change->structured["checks"][0]["status"] == "passed");
    REQUIRE(read_in_line.has_value());
    REQUIRE(read_later.has_value());
    CHECK(log == std::vector<std::string>{"read 1 done", "read 2 done", "change done", "change 2 done"});
    CHECK(read_took > 0s);  // the read had answered 600 ms in, while the 1 s check still ran
    CHECK(read_in_line->structured["text"] == "     1\tone\n     2\tTWO");
    CHECK(read_later->structured["text"] == "     1\tone\n     2\tTWO");
    REQUIRE(second_change.has_value());
    CHECK_FALSE(second_change->is_error);
    CHECK(c.f.get("a.txt") == "ONE\nTWO\n");
    CHECK(c.f.lanes.lanes() == 0);
}

TEST_CASE("checks: changes of a file under a slow check answers at once") {
    Checked c({"*.txt=sh -c 'grep -q slow \"$1\" && sleep 1; true' sh {file}"});
    ledger::SessionChanges session_changes;
    c.f.ctx.session_changes = &session_changes;
    c.f.put("a.txt", "one\ntwo\n");
    REQUIRE_FALSE(c.edit("a.txt", "one", "ONE").is_error);  // a quick check: the file is among the session's changes
    std::vector<std::string> log;
    std::optional<tools::ToolResult> change, listed;
    const auto start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::duration listed_after{};
    c.f.start(tools::edit_handler(), {{"file_path", c.f.path("a.txt")}, {"old_string", "two"}, {"new_string", "slow"}},
              change, &log, "change done");
    asio::steady_timer later(c.f.io, 200ms);
    later.async_wait([&](std::error_code) {
        c.f.start(tools::changes_handler(), {{"file_path", c.f.path("a.txt")}}, listed, &log, "changes done");
    });
    asio::steady_timer probe(c.f.io, 600ms);
    probe.async_wait([&](std::error_code) {
        if (listed) listed_after = std::chrono::steady_clock::now() - start;
    });
    c.f.io.restart();
    c.f.io.run();
    REQUIRE(change.has_value());
    CHECK(change->structured["checks"][0]["status"] == "passed");
    REQUIRE(listed.has_value());
    CHECK_FALSE(listed->is_error);
    CHECK(log == std::vector<std::string>{"changes done", "change done"});
    CHECK(listed_after > 0s);  // it had answered 600 ms in, while the 1 s check still ran
    CHECK(has(listed->structured["patch"].get<std::string>(), "+ONE"));
}

TEST_CASE("checks: findings of a file another program wrote during the check are not remembered as the change's") {
    // The check reads the file on disk 300 ms in; another program writes a BAD line 100 ms in.
    Checked c(
        {"*.txt=sh -c 'sleep 0.3; grep -n BAD \"$1\" | sed \"s/^\\([0-9]*\\):.*/$(basename $1):\\1:1: error: bad "
         "line/\"; "
         "true' sh {file}"});
    c.f.put("a.txt", "ok\n");
    std::optional<tools::ToolResult> first;
    c.f.start(tools::edit_handler(), {{"file_path", c.f.path("a.txt")}, {"old_string", "ok"}, {"new_string", "fine"}},
              first);
    asio::steady_timer meanwhile(c.f.io, 100ms);
    meanwhile.async_wait([&](std::error_code) { c.f.put("a.txt", "BAD\n"); });
    c.f.io.run();
    REQUIRE(first.has_value());
    CHECK_FALSE(first->is_error);
    // The other program puts back the bytes the change wrote; the next change starts from them,
    // which have no finding: its pre-image is checked, not taken from the run that saw BAD.
    c.f.put("a.txt", "fine\n");
    auto second = c.edit("a.txt", "fine", "good");
    CHECK_FALSE(second.is_error);
    const Json& check = second.structured["checks"][0];
    CHECK(check["compared"] == true);
    CHECK(check["diagnostics"].empty());
    CHECK(check["fixed"].empty());
    CHECK_FALSE(has(second.structured["summary"].get<std::string>(), "fixed"));
}

TEST_CASE("checks: apply_diff checks every written file") {
    Checked c({"*.json=python3 -m json.tool {file}"});
    c.f.put("a.json", "[1]\n");
    c.f.put("b.json", "[2]\n");
    auto r = c.f.call(tools::apply_diff_handler(), {{"diff",
                                                     "--- a/a.json\n+++ b/a.json\n@@ -1 +1 @@\n-[1]\n+[1,]\n--- "
                                                     "a/b.json\n+++ b/b.json\n@@ -1 +1 @@\n-[2]\n+[3]\n"}});
    REQUIRE_FALSE(r.is_error);
    const Json& checks = r.structured["checks"];
    REQUIRE(checks.size() == 2);
    CHECK(checks[0]["status"] == "failed");
    CHECK(checks[1]["status"] == "passed");
}

TEST_CASE("checks: the pre-image's check runs on a private copy, its path replaced by the real one") {
    // The remembered result of the last check is used when the bytes are the same: a file changed
    // by someone else in between is checked again from a copy.
    Checked c({"*.py=python3 -m py_compile {file}"});
    c.f.put("m.py", "def f(:\n    pass\n");
    auto r = c.edit("m.py", "x = 1", "x = 2");  // no such text: an error, nothing checked
    CHECK(r.is_error);
    auto fix = c.edit("m.py", "def f(:", "def f():");
    const Json& check = fix.structured["checks"][0];
    CHECK(check["status"] == "passed");
    REQUIRE(check["fixed"].size() == 1);
    CHECK(check["fixed"][0]["file"] == c.f.path("m.py"));
    CHECK(check["fixed"][0]["message"] == "SyntaxError: invalid syntax");
}

TEST_CASE("Glob over the path under the root, for files in nested folders") {
    CHECK(checks::path_in_roots(os::Workspace({"/"}), "/a/b") == "a/b");
}
