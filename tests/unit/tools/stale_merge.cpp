// Unit tests of merging a change with what changed on disk (text/stale_merge, run_change,
// write): a write over a file changed since it was read merges when the lines differ and is
// refused (stale, both sides) when they overlap; a file changed while the approval was being
// asked is merged, asked again, and written; an overlap there writes nothing (conflict).
#include "fixture.hpp"

#include "text/diff/stale_merge.hpp"

using tools_test::Fixture;
using tools_test::Json;

TEST_CASE("stale merge: write over a file changed since it was read keeps the other change") {
    Fixture f;
    f.put("a.txt", "one\r\ntwo\r\nthree\r\n");
    REQUIRE_FALSE(f.read("a.txt").is_error);
    f.put("a.txt", "one\r\ntwo\r\nthree\r\nfour\r\n");  // another program appends a line
    const auto r = f.call(tools::write_handler(), {{"file_path", f.path("a.txt")}, {"content", "ONE\ntwo\nthree\n"}});
    REQUIRE_MESSAGE(!r.is_error, r.text);
    CHECK(f.get("a.txt") == "ONE\r\ntwo\r\nthree\r\nfour\r\n");  // LF content kept the file's CRLF, as write does
    CHECK(r.text.find("Merged: a.txt changed on disk since this session last read or wrote it") != std::string::npos);
}

TEST_CASE("stale merge: a write that doubles a block the other program changed is refused, not placed by guess") {
    Fixture f;
    f.put("a.py", "x = 1\ny = 2\n");
    REQUIRE_FALSE(f.read("a.py").is_error);
    f.put("a.py", "x = 10\ny = 2\n");  // another program changes the block
    const auto r =
        f.call(tools::write_handler(), {{"file_path", f.path("a.py")}, {"content", "x = 1\ny = 2\nx = 1\ny = 2\n"}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::stale);
    CHECK(r.text.find("these lines repeat, so where the other change belongs relative to this one is not certain") !=
          std::string::npos);
    CHECK(f.get("a.py") == "x = 10\ny = 2\n");
}

TEST_CASE("stale merge: write over an overlapping change is refused as stale, with both sides") {
    Fixture f;
    f.put("a.txt", "one\ntwo\n");
    REQUIRE_FALSE(f.read("a.txt").is_error);
    f.put("a.txt", "uno\ntwo\n");
    const auto r = f.call(tools::write_handler(), {{"file_path", f.path("a.txt")}, {"content", "ONE\ntwo\n"}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::stale);
    CHECK(r.text.find("<<<<<<< this change\nONE\n=======\nuno\n>>>>>>> the file now") != std::string::npos);
    CHECK(r.text.find("What changed on disk:\n--- a/a.txt") != std::string::npos);
    CHECK(f.get("a.txt") == "uno\ntwo\n");
}

TEST_CASE("stale merge: a file changed while the approval was asked is merged and asked again") {
    Fixture f;
    f.put("a.txt", "a\nb\nc\nd\n");
    int asked = 0;
    std::string second_diff;
    f.ctx.approve = tools_test::approving([&](const tools::ApprovalRequest& ask) {
        if (++asked == 1)
            f.put("a.txt", "a\nb\nc\nD\n");  // the human's editor saves meanwhile
        else
            second_diff = ask.diff + "|" + ask.tool + "|" + ask.asked_again_because;
    });
    const auto r =
        f.call(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "a\n"}, {"new_string", "A\n"}});
    REQUIRE_MESSAGE(!r.is_error, r.text);
    CHECK(asked == 2);
    CHECK(second_diff ==
          "--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n D\n|edit|merged with a change on disk");
    CHECK(f.get("a.txt") == "A\nb\nc\nD\n");
    CHECK(r.structured["diff"] == "--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n D\n");
}

TEST_CASE("stale merge: overlapping changes while asking write nothing (conflict)") {
    Fixture f;
    f.put("a.txt", "a\nb\n");
    f.ctx.approve = tools_test::approving([&f](const tools::ApprovalRequest&) { f.put("a.txt", "x\nb\n"); });
    const auto r =
        f.call(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "a\n"}, {"new_string", "A\n"}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::conflict);
    CHECK(r.text.find("1 place of that change overlaps this one") != std::string::npos);
    CHECK(f.get("a.txt") == "x\nb\n");
}

TEST_CASE("stale merge: the conflict report is bounded") {
    std::vector<text::MergeConflict> many(8, text::MergeConflict{3, 1, 4, "b\n", std::string(5000, 'o'), "t\n"});
    const std::string report = text::conflict_report(many);
    CHECK(report.find("... and 3 more overlaps") != std::string::npos);
    CHECK(report.size() < 5 * 2300 + 200);
    CHECK(report.find("@@ line 3 of the file as this change saw it; from line 4 of the file now @@") !=
          std::string::npos);
}
