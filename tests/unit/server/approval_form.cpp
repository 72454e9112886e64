// Unit tests of server/approval_form and server/diff_spool: the form's message is shaped for what
// hosts render (Claude Code: four lines; Codex: one screen), the answer is read fail-closed, and
// refusals that may come from an unattended client name the ways out.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "server/approval_form.hpp"
#include "server/approval_gate.hpp"
#include "server/diff_spool.hpp"
#include "text/diff/elision.hpp"
#include "text/diff/unified_diff.hpp"
#include "tools/pipeline/transaction.hpp"

namespace {

tools::ApprovalRequest request(std::string diff, std::size_t additions, std::size_t removals) {
    tools::ApprovalRequest ask;
    ask.tool = "edit";
    ask.paths = {"src/a.txt"};
    ask.additions = additions;
    ask.removals = removals;
    ask.diff = std::move(diff);
    return ask;
}

std::size_t count_lines(const std::string& s) {
    std::size_t n = 1;
    for (char c : s) n += c == '\n';
    return n;
}

}  // namespace

TEST_CASE("a small change is shown whole in four lines, without a trailing newline") {
    const auto ask = request("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n", 1, 1);
    CHECK(server::shows_whole(ask));
    const auto form = server::approval_form(ask, {"2025-11-25", true, std::nullopt});
    CHECK(form["message"] == "edit +1 -1 at line 4: src/a.txt\n-d\n+D");
    CHECK(form["mode"] == "form");
    CHECK(form["requestedSchema"]["properties"].contains("feedback"));
    CHECK(form["requestedSchema"]["properties"]["decision"].contains("oneOf"));
}

TEST_CASE("the first changed line counts context and added lines of the new side") {
    const auto ask = request("--- a/x\n+++ b/x\n@@ -1,5 +1,6 @@\n a\n b\n+new\n c\n-d\n+D\n e\n", 2, 1);
    CHECK(server::approval_summary(ask) == "edit +2 -1 at line 3: src/a.txt");
    const auto two_places =
        request("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -9,2 +9,2 @@\n i\n-j\n+J\n", 2, 2);
    CHECK(server::approval_summary(two_places) == "edit +2 -2 at line 1 (2 places): src/a.txt");
}

TEST_CASE("a removed line that starts with two dashes is not taken for a file header") {
    const auto ask = request("--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n--- comment\n+-- COMMENT\n", 1, 1);
    const auto form = server::approval_form(ask, {"2025-11-25", true, std::nullopt});
    CHECK(form["message"] == "edit +1 -1 at line 1: src/a.txt\n--- comment\n+-- COMMENT");
}

TEST_CASE("a large change: summary, where the full diff is, the first change, a bounded excerpt") {
    std::string diff = "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,30 +1,30 @@\n";
    for (int i = 1; i <= 30; ++i) diff += "-old " + std::to_string(i) + "\n";
    for (int i = 1; i <= 30; ++i) diff += "+new " + std::to_string(i) + "\n";
    const auto ask = request(diff, 30, 30);
    CHECK_FALSE(server::shows_whole(ask));
    const auto form = server::approval_form(ask, {"2025-06-18", false, std::string("/tmp/d/1.diff")});
    const std::string message = form["message"];
    // A replaced block: the first line says what it becomes; the excerpt shows both runs, cut.
    CHECK(message ==
          "edit +30 -30 at line 1: src/a.txt\nFull diff (63 lines): /tmp/d/1.diff\n-old 1  \u2192  +new 1\n\n"
          "@@ -1,30 +1,30 @@\n-old 1\n-old 2\n-old 3\n-old 4\n\u2026 26 more removed lines\n"
          "+new 1\n+new 2\n+new 3\n+new 4\n\u2026 26 more added lines");
    CHECK(count_lines(message) <= 17);
    // 2025-06-18: enum + enumNames, no mode; Codex's form has no feedback field.
    CHECK_FALSE(form.contains("mode"));
    CHECK(form["requestedSchema"]["properties"]["decision"].contains("enumNames"));
    CHECK_FALSE(form["requestedSchema"]["properties"].contains("feedback"));
}

TEST_CASE("a change of several files is never shown as if whole") {
    auto ask = request("--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n", 1, 1);
    ask.paths.push_back("y");
    CHECK_FALSE(server::shows_whole(ask));
    const auto form = server::approval_form(ask, {"2025-11-25", true, std::nullopt});
    CHECK(std::string(form["message"]).find("Only the start of the diff fits here") != std::string::npos);
}

TEST_CASE("answers fail closed; refusals that may come from an unattended client name the ways out") {
    using Kind = server::ApprovalAnswer::Kind;
    CHECK(server::read_approval_answer({{"action", "accept"}, {"content", {{"decision", "apply"}}}}).kind ==
          Kind::apply);
    CHECK(server::read_approval_answer({{"action", "accept"}, {"content", nlohmann::json::object()}}).kind ==
          Kind::no_decision);
    CHECK(server::read_approval_answer({{"action", "cancel"}}).kind == Kind::cancel);
    for (const auto kind : {Kind::cancel, Kind::decline, Kind::no_decision}) {
        server::ApprovalAnswer answer;
        answer.kind = kind;
        const auto text = server::refusal_message(answer, "this edit of a.txt");
        CHECK(text.find("Nothing was written") != std::string::npos);
        CHECK(text.find("--approval auto") != std::string::npos);
        CHECK(text.find("Elicitation") != std::string::npos);
        CHECK(text.find("The user") == std::string::npos);
    }
    server::ApprovalAnswer rejected;
    rejected.kind = Kind::reject;
    rejected.feedback = "keep it";
    const auto text = server::refusal_message(rejected, "this edit of a.txt");
    CHECK(text.find("The user chose Reject") != std::string::npos);
    CHECK(text.find("Feedback from the user: keep it") != std::string::npos);
    CHECK(text.find("--approval auto") == std::string::npos);
}

TEST_CASE("DiffSpool keeps the newest files, private, and removes them at the end") {
    std::string first, last;
    {
        server::DiffSpool spool(2);
        first = spool.keep("diff one\n").value();
        spool.keep("diff two\n");
        last = spool.keep("diff three\n").value();
        CHECK(first.find("/mcp-edit-") != std::string::npos);
        CHECK(first.ends_with("/1.diff"));
        struct stat st {};
        REQUIRE(::stat(last.c_str(), &st) == 0);
#ifndef _WIN32  // Windows has no mode bits; the folder is private by its ACL
        CHECK((st.st_mode & 0777) == 0600);
#endif
        std::ifstream in(last);
        std::stringstream text;
        text << in.rdbuf();
        CHECK(text.str() == "diff three\n");
        CHECK(::stat(first.c_str(), &st) != 0);  // the oldest went when a third was kept
    }
    struct stat st {};
    CHECK(::stat(last.c_str(), &st) != 0);
}

TEST_CASE(
    "the summary says what a change does to whole files: a deleted binary file's size, a replaced move target, "
    "a patch's deletions and creations, and at most a line of paths (issue 39)") {
    const std::string binary("\x89PNG\0\0\x01", 7), text = "x\n";
    const std::string binary_diff = "Binary files a/bin.dat and /dev/null differ\n";
    tools::ApprovalRequest del = request(binary_diff, 0, 0);
    del.tool = "delete";
    del.paths = {"bin.dat"};
    del.images = {{"/r/bin.dat", &binary, std::nullopt}};
    CHECK(server::approval_summary(del) == "delete +0 -0 (deletes a binary file of 7 bytes): bin.dat");

    tools::ApprovalRequest move = request("diff --git a/a.txt b/b.txt\n", 0, 0);
    move.tool = "move";
    move.paths = {"a.txt", "b.txt"};
    move.images = {{"/r/a.txt", &text, std::nullopt}, {"/r/b.txt", &text, text::ByteParts(std::string_view(text))}};
    CHECK(server::approval_summary(move) == "move +0 -0 (replaces the existing b.txt): a.txt, b.txt");
    move.images.back().before = nullptr;  // a plain move names no replaced file
    CHECK(server::approval_summary(move) == "move +0 -0: a.txt, b.txt");

    tools::ApprovalRequest patch = request("", 1, 2000);
    patch.tool = "apply_diff";
    patch.paths.clear();
    for (int i = 0; i < 2000; ++i) {
        patch.paths.push_back("src/generated/file" + std::to_string(i) + ".txt");
        patch.images.push_back({patch.paths.back(), &text, std::nullopt});
    }
    patch.images.push_back({"new.txt", nullptr, text::ByteParts(std::string_view(text))});
    const std::string summary = server::approval_summary(patch);
    CAPTURE(summary);
    CHECK(summary.starts_with("apply_diff +1 -2000 (deletes 2000 files, creates 1 file): src/generated/file0.txt, "));
    CHECK(summary.ends_with(" more"));
    CHECK(summary.size() < 300);
}

TEST_CASE("a change that removes most of a file says so first: the form's first line and the view's title") {
    std::string before, after;
    for (int i = 1; i <= 480; ++i) before += "line " + std::to_string(i) + "\n";
    for (int i = 1; i <= 68; ++i) after += "line " + std::to_string(i) + "\n";
    text::DiffOptions options;
    options.old_path = "big.txt";
    tools::ShownDiff shown;
    shown.add("big.txt", text::unified_diff(before, after, options), text::count_lines(before));
    const tools::ApprovalRequest ask = tools::approval_request("write", shown);
    CHECK(ask.headline == "removes 412 of 480 lines");
    CHECK(server::approval_summary(ask) == "[removes 412 of 480 lines] write +0 -412 at line 69: big.txt");
    CHECK(server::change_title(ask) == "[removes 412 of 480 lines] write of big.txt");
    // Several files: each one that loses most of its lines, named.
    tools::ShownDiff two = shown;
    two.add("other.txt", text::unified_diff("a\n", "b\n", options), 1);
    CHECK(tools::approval_request("apply_diff", two).headline == "big.txt removes 412 of 480 lines");
    // Most changes say nothing first.
    tools::ShownDiff small;
    small.add("big.txt", text::unified_diff(before, before + "more\n", options), text::count_lines(before));
    CHECK(server::approval_summary(tools::approval_request("edit", small)) == "edit +1 -0 at line 481: big.txt");
}

TEST_CASE("a file written in another encoding is named so: the form's first line and the view's title") {
    text::DiffOptions options;
    options.old_path = "greet.py";
    tools::ShownDiff shown;
    shown.add("greet.py", text::unified_diff("你好\n", "再见\n", options), 1, "gbk");
    const tools::ApprovalRequest ask = tools::approval_request("edit", shown);
    CHECK(ask.encodings == "in gbk");
    CHECK(server::approval_summary(ask) == "edit +1 -1 (written in gbk) at line 1: greet.py");
    CHECK(server::change_title(ask) == "edit of greet.py (written in gbk)");
    tools::ShownDiff two = shown;
    two.add("plain.txt", text::unified_diff("a\n", "b\n", options), 1);
    two.add("u.txt", text::unified_diff("a\n", "b\n", options), 1, "utf-16le");
    const tools::ApprovalRequest both = tools::approval_request("apply_diff", two);
    CHECK(both.encodings == "greet.py in gbk, u.txt in utf-16le");
    CHECK(server::change_title(both) == "apply_diff of 3 files (written greet.py in gbk, u.txt in utf-16le)");
}
