// Unit tests of tools/change_report: the one place a change's result becomes text and JSON, for
// one file (edit and the other single-file tools) and for a patch's files (apply_diff).
#include <doctest/doctest.h>

#include "tools/pipeline/change_report.hpp"

namespace {

tools::FileOutcome file(std::string path, std::string diff, std::size_t additions, std::size_t removals) {
    tools::FileOutcome out;
    out.file_path = std::move(path);
    out.diff.text = std::move(diff);
    out.diff.additions = additions;
    out.diff.removals = removals;
    out.diff.first_changed_line = 3;
    return out;
}

}  // namespace

TEST_CASE("change report: one file, its fields at the top, notes as sentences and in `notes`") {
    tools::ChangeReport report;
    report.summary = "Changed a.txt (+1 -1).";
    report.notes = {"kept the file's CRLF line endings", "Read `old` as `old_string`."};
    report.files.push_back(file("/r/a.txt", "--- a.txt\n+++ a.txt\n", 1, 1));
    report.fields = {{"match", "exact"}, {"replacements", 1}};
    tools::ApprovalDecision decision;
    decision.kind = tools::ApprovalDecision::Kind::approved;
    decision.approval = tools::ApprovalSource::user;
    decision.feedback = "keep it short";
    report.decision = &decision;

    const tools::ToolResult result = tools::to_tool_result(std::move(report));
    const std::string summary =
        "Changed a.txt (+1 -1). Kept the file's CRLF line endings. Read `old` as `old_string`."
        "\nFeedback from the user: keep it short";
    CHECK(result.text == summary + "\n\n--- a.txt\n+++ a.txt\n");
    const tools::Json& s = result.structured;
    CHECK(s["summary"] == summary);
    CHECK(s["file_path"] == "/r/a.txt");
    CHECK(s["diff"] == "--- a.txt\n+++ a.txt\n");
    CHECK(s["additions"] == 1);
    CHECK(s["first_changed_line"] == 3);
    CHECK_FALSE(s.contains("diff_truncated"));  // said only when the diff was cut
    CHECK(s["created"] == false);
    CHECK(s["approval"] == "user");
    CHECK(s["feedback"] == "keep it short");
    CHECK(s["match"] == "exact");
    CHECK(s["notes"].size() == 2);
    CHECK_FALSE(s.contains("files"));
}

TEST_CASE("change report: several files, a `files` list with totals; nothing asked is approval none") {
    tools::ChangeReport report;
    report.shape = tools::ChangeReport::Shape::files;
    report.dry_run = true;
    report.summary = "Dry run (nothing written): the patch would change 2 files.";
    report.files.push_back(file("/r/a.txt", "diff a\n", 2, 1));
    tools::FileOutcome moved = file("/r/c.txt", "", 0, 0);
    moved.moved_from = "/r/b.txt";
    report.files.push_back(std::move(moved));
    report.fields = {{"format", "unified"}};

    const tools::ToolResult result = tools::to_tool_result(std::move(report));
    CHECK(result.text == "Dry run (nothing written): the patch would change 2 files.\n\ndiff a\n");
    const tools::Json& s = result.structured;
    CHECK(s["additions"] == 2);
    CHECK(s["removals"] == 1);
    CHECK(s["approval"] == "none");
    CHECK(s["dry_run"] == true);
    CHECK(s["format"] == "unified");
    REQUIRE(s["files"].size() == 2);
    CHECK(s["files"][1]["moved_from"] == "/r/b.txt");
    CHECK(s["files"][1]["deleted"] == false);
    CHECK_FALSE(s["files"][0].contains("moved_from"));
    CHECK_FALSE(s.contains("notes"));
    CHECK_FALSE(s.contains("feedback"));
}

TEST_CASE("change report: one file whose diff was cut says diff_truncated") {
    tools::ChangeReport report;
    report.summary = "Changed a.txt (+1 -1).";
    tools::FileOutcome cut = file("/r/a.txt", "--- a.txt\n+++ a.txt\n", 1, 1);
    cut.diff.truncated = true;
    report.files.push_back(std::move(cut));

    const tools::ToolResult result = tools::to_tool_result(std::move(report));
    const tools::Json& s = result.structured;
    CHECK(s["diff_truncated"] == true);
    CHECK(s["summary"] == "Changed a.txt (+1 -1).");
}
