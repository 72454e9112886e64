// Unit tests that call the tool handlers in-process (a temporary root, a real io_context, the
// session's file states and lanes): what a change relies on having been seen (insert by line
// number, a patch's pure insertions, a deletion), several names of one file in one patch (hard
// links, a symlink and its target), and reads that do not wait behind an open approval form.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <unistd.h>

#include "tools/change.hpp"
#include "tests/unit/tools/fixture.hpp"
#include "os/hash.hpp"
#include "tools/registry.hpp"

using namespace tools_test;

// ---- stale: insert ----------------------------------------------------------------------------

TEST_CASE("insert after line N: refused on a file this session never read, with its facts now") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    const auto r = f.insert("a.txt", 2, "new");
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: this session has not read a.txt"));
    CHECK(has(r.text, "It has 3 lines now (sha256 " + os::sha256_hex("one\ntwo\nthree\n") + ")."));
    CHECK(has(r.text, "Call read on it first, then insert again at the line number read shows"));
    CHECK(f.get("a.txt") == "one\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    const auto ok = f.insert("a.txt", 2, "new");
    CHECK_FALSE(ok.is_error);
    CHECK(f.get("a.txt") == "one\ntwo\nnew\nthree\n");
}

TEST_CASE("insert after line N: refused when another program changed the file since the read") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    f.put("a.txt", "header 1\nheader 2\none\ntwo\nthree\n");  // shifted by two lines
    const auto r = f.insert("a.txt", 2, "after two");
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: a.txt changed on disk since this session last read or wrote it"));
    CHECK(has(r.text, "It has 5 lines now (sha256 " + os::sha256_hex("header 1\nheader 2\none\ntwo\nthree\n") + ")."));
    CHECK(has(r.text, "Call read on it again, then insert again"));
    CHECK(f.get("a.txt") == "header 1\nheader 2\none\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    CHECK_FALSE(f.insert("a.txt", 4, "after two").is_error);
    CHECK(f.get("a.txt") == "header 1\nheader 2\none\ntwo\nafter two\nthree\n");
}

TEST_CASE("insert: what this session wrote counts as seen; the top and the end need no read") {
    Fixture f;
    f.put("a.txt", "one\r\ntwo\r\n");
    CHECK_FALSE(f.insert("a.txt", 0, "top").is_error);      // names no line
    CHECK_FALSE(f.insert("a.txt", -1, "bottom").is_error);  // names no line
    CHECK(f.get("a.txt") == "top\r\none\r\ntwo\r\nbottom\r\n");
    // Written by this session just now: line numbers on that content are known.
    CHECK_FALSE(f.insert("a.txt", 2, "middle").is_error);
    CHECK(f.get("a.txt") == "top\r\none\r\nmiddle\r\ntwo\r\nbottom\r\n");
    f.put("a.txt", "changed\n");
    CHECK(f.insert("a.txt", 1, "x").is_error);
    CHECK(f.get("a.txt") == "changed\n");
}

// ---- stale: apply_diff ------------------------------------------------------------------------

TEST_CASE("apply_diff: *** Delete File: of a file never read, or changed since, is refused") {
    Fixture f;
    f.put("gone.txt", "keep me\n");
    const std::string patch = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n";
    auto r = f.apply_diff(patch);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: this session has not read gone.txt, and the patch deletes it without showing its content"));
    CHECK(has(r.text, "It has 1 line now (sha256 " + os::sha256_hex("keep me\n") + ")."));
    CHECK(fs::exists(f.root / "gone.txt"));
    CHECK_FALSE(f.read("gone.txt").is_error);
    f.put("gone.txt", "keep me\nand me\n");
    r = f.apply_diff(patch);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: gone.txt changed on disk since this session last read or wrote it"));
    CHECK(fs::exists(f.root / "gone.txt"));
    CHECK_FALSE(f.read("gone.txt").is_error);
    r = f.apply_diff(patch);
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(fs::exists(f.root / "gone.txt"));
}

TEST_CASE("apply_diff: a deletion that shows the content it deletes needs no read (the content is checked)") {
    Fixture f;
    f.put("gone.txt", "a\nb\n");
    const auto r = f.apply_diff("--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(fs::exists(f.root / "gone.txt"));
}

TEST_CASE("apply_diff: a hunk placed by line number alone needs the file read and unchanged; context hunks do not") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    const std::string by_number = "--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+new\n";
    auto r = f.apply_diff(by_number);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: this session has not read a.txt, and the patch places lines by line number alone (hunk 1 after line 2;"));
    CHECK(f.get("a.txt") == "one\ntwo\nthree\n");
    // Located by its context lines: no read needed.
    r = f.apply_diff("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n");
    CHECK_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "one\nTWO\nthree\n");
    // Written by this session: known.
    r = f.apply_diff(by_number);
    CHECK_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "one\nTWO\nnew\nthree\n");
    f.put("a.txt", "zero\none\nTWO\nnew\nthree\n");
    r = f.apply_diff(by_number);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: a.txt changed on disk since this session last read or wrote it"));
    CHECK(has(r.text, "It has 5 lines now"));
}

// ---- one file under several names in one patch ------------------------------------------------

TEST_CASE("apply_diff: sections for two hard links of one file are applied together, both changes kept") {
    Fixture f;
    f.put("a.txt", "1\n2\n3\n4\n5\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    const auto r = f.apply_diff(
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-1\n+ONE\n 2\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -3,2 +3,2 @@\n 3\n-4\n+FOUR\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "ONE\n2\n3\nFOUR\n5\n");
    CHECK(f.get("b.txt") == "ONE\n2\n3\nFOUR\n5\n");
    CHECK(fs::hard_link_count(f.root / "a.txt") == 2);
    CHECK(r.structured["files"].size() == 1);
    CHECK(r.structured["blocks_applied"] == 2);
    CHECK(has(r.text, "Applied the patch to 1 file (unified, 2 blocks, +2 -2). a.txt and b.txt are one file (hard links): "
                      "their sections were applied together, on its one content."));
}

TEST_CASE("apply_diff: a symlink and its target in one patch are one file") {
    Fixture f;
    f.put("real.txt", "alpha\nbeta\ngamma\ndelta\n");
    fs::create_symlink(f.root / "real.txt", f.root / "link.txt");
    const auto r = f.apply_diff(
        "--- a/link.txt\n+++ b/link.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n"
        "--- a/real.txt\n+++ b/real.txt\n@@ -4 +4 @@\n-delta\n+DELTA\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("real.txt") == "ALPHA\nbeta\ngamma\nDELTA\n");
    CHECK(fs::is_symlink(f.root / "link.txt"));
    CHECK(has(r.text, "link.txt and real.txt are one file (a symlink or another spelling of its path)"));
}

TEST_CASE("apply_diff: another spelling of one path in one patch is one file") {
    Fixture f;
    f.put("dir/a.txt", "x\ny\nz\n");
    const auto r = f.apply_diff(
        "--- a/dir/a.txt\n+++ b/dir/a.txt\n@@ -1 +1 @@\n-x\n+X\n"
        "--- a/dir/../dir/a.txt\n+++ b/dir/../dir/a.txt\n@@ -3 +3 @@\n-z\n+Z\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("dir/a.txt") == "X\ny\nZ\n");
}

TEST_CASE("apply_diff: overlapping sections of hard links are refused as an overlap, nothing written") {
    Fixture f;
    f.put("a.txt", "1\n2\n3\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    const auto r = f.apply_diff(
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+ONE\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-1\n+uno\n");
    CHECK(r.is_error);
    CHECK(has(r.text, "overlaps"));
    CHECK(f.get("a.txt") == "1\n2\n3\n");
}

TEST_CASE("apply_diff: a hard link deleted or created beside a change of its other name is refused") {
    Fixture f;
    f.put("a.txt", "1\n2\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    CHECK_FALSE(f.read("b.txt").is_error);
    const auto r = f.apply_diff(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-1\n+ONE\n*** Delete File: b.txt\n*** End Patch\n");
    CHECK(r.is_error);
    CHECK(has(r.text, "its sections for a.txt and b.txt name one file (hard links: the same device and inode), and one of them deletes it."));
    CHECK(f.get("a.txt") == "1\n2\n");
    CHECK(fs::exists(f.root / "b.txt"));
}

// ---- reads do not wait for a human --------------------------------------------------------------

namespace {

// A gate that keeps the form open for `open_for`, saying so when `says_it_waits` (as the session's
// legacy gate does), then approves.
tools::ApprovalGate slow_gate(asio::io_context& io, std::chrono::milliseconds open_for, bool says_it_waits,
                              std::vector<std::string>& log) {
    return [&io, open_for, says_it_waits, &log](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
        if (says_it_waits && ask.waiting_for_human) ask.waiting_for_human();
        log.push_back("form open");
        asio::steady_timer t(io, open_for);
        co_await t.async_wait(asio::use_awaitable);
        log.push_back("answered");
        tools::ApprovalDecision d;
        d.kind = tools::ApprovalDecision::Kind::approved;
        d.approval = "user";
        co_return d;
    };
}

}  // namespace

TEST_CASE("read: does not wait behind an open approval form of the same file; returns the bytes on disk") {
    for (const char* tool : {"edit", "apply_diff"}) {
        CAPTURE(tool);
        Fixture f;
        f.put("a.txt", "one\ntwo\n");
        std::vector<std::string> log;
        f.ctx.approve = slow_gate(f.io, std::chrono::milliseconds(400), true, log);
        std::optional<tools::ToolResult> change, read_before_form, read_while_open;
        if (std::string(tool) == "edit")
            f.start(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}}, change,
                    &log, "change done");
        else
            f.start(tools::apply_diff_handler(), {{"diff", "--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-two\n+TWO\n"}}, change, &log,
                    "change done");
        // In line before the form opened: let go when it opens.
        f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read_before_form, &log, "read 1 done");
        asio::steady_timer later(f.io, std::chrono::milliseconds(50));
        later.async_wait([&](std::error_code) {
            f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read_while_open, &log, "read 2 done");
        });
        f.io.run();
        REQUIRE(change.has_value());
        CHECK_FALSE(change->is_error);
        REQUIRE(read_before_form.has_value());
        REQUIRE(read_while_open.has_value());
        CHECK(log == std::vector<std::string>{"form open", "read 1 done", "read 2 done", "answered", "change done"});
        CHECK(read_before_form->structured["text"] == "     1\tone\n     2\ttwo");
        CHECK(read_while_open->structured["text"] == "     1\tone\n     2\ttwo");
        CHECK(f.get("a.txt") == "one\nTWO\n");
        CHECK(f.lanes.lanes() == 0);
    }
}

TEST_CASE("read: still waits for a change that is not waiting for a human, and sees it") {
    Fixture f;
    f.put("a.txt", "one\ntwo\n");
    std::vector<std::string> log;
    f.ctx.approve = slow_gate(f.io, std::chrono::milliseconds(200), false, log);  // e.g. slow work, no form
    std::optional<tools::ToolResult> change, read;
    f.start(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}}, change, &log,
            "change done");
    f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read, &log, "read done");
    f.io.run();
    REQUIRE(read.has_value());
    CHECK(log == std::vector<std::string>{"form open", "answered", "change done", "read done"});
    CHECK(read->structured["text"] == "     1\tone\n     2\tTWO");
}

TEST_CASE("file lanes: a read goes past a holder waiting for a human; changes keep their places") {
    asio::io_context io;
    tools::FileLanes lanes(io.get_executor());
    std::vector<std::string> log;
    auto holder = [&]() -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire("k");
        log.push_back("holder+");
        asio::steady_timer t(io, std::chrono::milliseconds(30));
        co_await t.async_wait(asio::use_awaitable);
        lanes.waiting_for_human("k", true);
        log.push_back("holder waits for a human");
        t.expires_after(std::chrono::milliseconds(100));
        co_await t.async_wait(asio::use_awaitable);
        lanes.waiting_for_human("k", false);
        log.push_back("holder-");
    };
    auto change = [&]() -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire("k");
        log.push_back(std::string("change+") + (guard.held() ? "" : " (not held!)"));
    };
    auto reader = [&](std::string name) -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire_for_read("k");
        log.push_back(name + (guard.held() ? " with the lane" : " without the lane"));
    };
    asio::co_spawn(io, holder(), asio::detached);
    asio::co_spawn(io, change(), asio::detached);
    asio::co_spawn(io, reader("read 1"), asio::detached);
    asio::steady_timer later(io, std::chrono::milliseconds(60));
    later.async_wait([&](std::error_code) { asio::co_spawn(io, reader("read 2"), asio::detached); });
    asio::steady_timer after(io, std::chrono::milliseconds(250));
    after.async_wait([&](std::error_code) { asio::co_spawn(io, reader("read 3"), asio::detached); });
    io.run();
    CHECK(log == std::vector<std::string>{"holder+", "holder waits for a human", "read 1 without the lane", "read 2 without the lane",
                                          "holder-", "change+", "read 3 with the lane"});
    CHECK(lanes.lanes() == 0);
}

// ---- multiedit against "original" ------------------------------------------------------------

TEST_CASE("multiedit against original: every edit located on the file as it was, applied at once") {
    Fixture f;
    f.put("m.txt", "alpha\r\nbeta\r\ngamma\r\n");
    // Sequentially, edits[1] would find "beta" twice (edits[0] wrote a second one); on the original, once.
    Json edits = Json::array({{{"old_string", "alpha"}, {"new_string", "beta alpha"}},
                              {{"old_string", "beta"}, {"new_string", "BETA"}}});
    const auto sequential = f.call(tools::multiedit_handler(), {{"file_path", f.path("m.txt")}, {"edits", edits}});
    INFO(sequential.text);
    CHECK(sequential.is_error);
    CHECK(sequential.reason == base::ErrorReason::ambiguous);
    CHECK(f.get("m.txt") == "alpha\r\nbeta\r\ngamma\r\n");
    const auto r = f.call(tools::multiedit_handler(),
                          {{"file_path", f.path("m.txt")}, {"edits", edits}, {"against", "original"}});
    INFO(r.text);
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("m.txt") == "beta alpha\r\nBETA\r\ngamma\r\n");
    CHECK(r.structured["replacements"] == 2);
}

TEST_CASE("multiedit against original: overlapping edits are refused as an overlap naming both") {
    Fixture f;
    f.put("m.txt", "one\ntwo\nthree\nfour\n");
    const auto r = f.call(tools::multiedit_handler(),
                          {{"file_path", f.path("m.txt")},
                           {"against", "original"},
                           {"edits", Json::array({{{"old_string", "two\nthree"}, {"new_string", "2\n3"}},
                                                  {{"old_string", "three\nfour"}, {"new_string", "3\n4"}}})}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::overlap);
    CHECK(has(r.text, "edits[1] (lines 3-4) overlaps edits[0] (lines 2-3)"));
    CHECK(f.get("m.txt") == "one\ntwo\nthree\nfour\n");
}

TEST_CASE("multiedit against original: a missing old_string names its edit; nothing is written") {
    Fixture f;
    f.put("m.txt", "one\ntwo\n");
    const auto r = f.call(tools::multiedit_handler(),
                          {{"file_path", f.path("m.txt")},
                           {"against", "original"},
                           {"edits", Json::array({{{"old_string", "one"}, {"new_string", "1"}},
                                                  {{"old_string", "zzz"}, {"new_string", "2"}}})}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::not_found);
    CHECK(r.text.starts_with("edits[1] failed"));
    CHECK(f.get("m.txt") == "one\ntwo\n");
}
