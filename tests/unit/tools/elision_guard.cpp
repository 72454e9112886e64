// The guard against lossy changes through the tools (issue 42, part 1): new text that puts an
// elision marker where it drops lines of the file is refused by write, edit, multiedit and
// apply_diff alike, dry runs included, and nothing is written; a marker already in the file or one
// that replaces nothing passes. A change that removes most of a file says so to the gate and in
// its result.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

namespace {

const std::string three_functions = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n";

// The refusal every tool gives: the marker, its line, the dropped lines, what to send instead.
void check_refused(const tools::ToolResult& r, std::string_view marker_line) {
    INFO(r.text);
    CHECK(r.is_error);
    CHECK(r.reason == base::ErrorReason::invalid_arguments);
    CHECK(has(r.text, "is an elision marker (it stands for code left out)"));
    CHECK(has(r.text, marker_line));
    CHECK(has(r.text, "Nothing was written."));
    CHECK(has(r.text, "or use edit to replace only the part that changes"));
}

}  // namespace

TEST_CASE("elision guard: the issue's write over three functions read first is refused, the file kept") {
    Fixture f;
    f.put("a.py", three_functions);
    REQUIRE_FALSE(f.read("a.py").is_error);
    const Json content = "def a(): return 10\n# ... rest of the code unchanged ...\n";
    for (const bool dry_run : {true, false}) {
        CAPTURE(dry_run);
        const auto r =
            f.call(tools::write_handler(), {{"file_path", f.path("a.py")}, {"content", content}, {"dry_run", dry_run}});
        check_refused(r, "line 2 of the new text of a.py, `# ... rest of the code unchanged ...`");
        CHECK(has(r.text,
                  "this write would drop 6 lines of the file that the new text does not keep: lines 1-2, 5-6, 9-10 "
                  "(`def a():`, `return 1`, `def b():`, ...)"));
        CHECK(has(r.text, "Send the whole content with nothing left out"));
        CHECK(f.get("a.py") == three_functions);
    }
    // The whole content, nothing left out: written.
    const auto whole =
        f.call(tools::write_handler(),
               {{"file_path", f.path("a.py")},
                {"content", "def a(): return 10\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"}});
    INFO(whole.text);
    CHECK_FALSE(whole.is_error);
}

TEST_CASE("elision guard: edit, multiedit and apply_diff refuse a marker over real lines too") {
    Fixture f;
    f.put("a.py", three_functions);
    SUBCASE("edit") {
        const auto r = f.call(tools::edit_handler(), {{"file_path", f.path("a.py")},
                                                      {"old_string", "def b():\n    return 2\n"},
                                                      {"new_string", "def b():\n    # ...existing code...\n"}});
        check_refused(r, "line 6 of the new text of a.py, `# ...existing code...`");
        CHECK(has(r.text,
                  "this edit would drop 1 line of the file that the new text does not keep: line 6 (`return 2`)"));
    }
    SUBCASE("edit, dry run") {
        const auto r = f.call(tools::edit_handler(), {{"file_path", f.path("a.py")},
                                                      {"old_string", "def c():\n    return 3"},
                                                      {"new_string", "// ... rest of the file ..."},
                                                      {"dry_run", true}});
        check_refused(r, "line 9 of the new text of a.py, `// ... rest of the file ...`");
    }
    SUBCASE("multiedit: the second edit") {
        const auto r = f.call(
            tools::multiedit_handler(),
            {{"file_path", f.path("a.py")},
             {"edits", Json::array({{{"old_string", "return 1"}, {"new_string", "return 10"}},
                                    {{"old_string", "def c():\n    return 3"}, {"new_string", "# (unchanged)"}}})}});
        check_refused(r, "`# (unchanged)`");
        CHECK(has(r.text, "this multiedit would drop 2 lines"));
    }
    SUBCASE("apply_diff: a SEARCH/REPLACE block") {
        const auto r =
            f.call(tools::apply_diff_handler(),
                   {{"file_path", f.path("a.py")},
                    {"diff",
                     "<<<<<<< SEARCH\ndef b():\n    return 2\n=======\n# ... other functions ...\n>>>>>>> REPLACE\n"}});
        check_refused(r, "line 5 of the new text of a.py, `# ... other functions ...`");
        CHECK(has(r.text, "this apply_diff would drop 2 lines of the file that the new text does not keep: lines 5-6"));
    }
    SUBCASE("apply_diff: an apply_patch section that moves the file and elides on the way") {
        // The new file's text comes from the one it moves: the marker drops lines of that.
        const auto r = f.call(
            tools::apply_diff_handler(),
            {{"diff", "*** Begin Patch\n*** Update File: " + f.path("a.py") + "\n*** Move to: " + f.path("b.py") +
                          "\n@@\n-def b():\n-    return 2\n+# ... other "
                          "functions ...\n*** End Patch\n"}});
        check_refused(r, "line 5 of the new text of b.py, `# ... other functions ...`");
        CHECK(has(r.text, "would drop 2 lines of the file that the new text does not keep: lines 5-6"));
        CHECK_FALSE(std::filesystem::exists(f.root / "b.py"));
    }
    CHECK(f.get("a.py") == three_functions);
}

TEST_CASE("elision guard: a marker already in the file, or one that replaces nothing, passes") {
    Fixture f;
    SUBCASE("already in the file: rewritten around it") {
        f.put("a.py", "x = 1\n# ... (unchanged) ...\ny = 2\nz = 3\n");
        REQUIRE_FALSE(f.read("a.py").is_error);
        const auto r = f.call(tools::write_handler(),
                              {{"file_path", f.path("a.py")}, {"content", "x = 10\n# ... (unchanged) ...\n"}});
        INFO(r.text);
        CHECK_FALSE(r.is_error);
        CHECK(f.get("a.py") == "x = 10\n# ... (unchanged) ...\n");
    }
    SUBCASE("a pure insertion through edit") {
        f.put("a.py", three_functions);
        const auto r = f.call(tools::edit_handler(), {{"file_path", f.path("a.py")},
                                                      {"old_string", "def c():\n"},
                                                      {"new_string", "# ... more helpers later ...\ndef c():\n"}});
        INFO(r.text);
        CHECK_FALSE(r.is_error);
        CHECK(has(f.get("a.py"), "# ... more helpers later ...\ndef c():\n"));
    }
    SUBCASE("a real comment that looks like one") {
        f.put("a.py", three_functions);
        const auto r = f.call(tools::edit_handler(), {{"file_path", f.path("a.py")},
                                                      {"old_string", "    return 2\n"},
                                                      {"new_string", "    # rest of the world\n    return 2 * 2\n"}});
        INFO(r.text);
        CHECK_FALSE(r.is_error);
    }
}

TEST_CASE("a change that removes most of a file says so to the gate and in its result") {
    Fixture f;
    std::string lines;
    for (int i = 1; i <= 480; ++i) lines += "line " + std::to_string(i) + "\n";
    std::string kept;
    for (int i = 1; i <= 68; ++i) kept += "line " + std::to_string(i) + "\n";
    f.put("big.txt", lines);
    REQUIRE_FALSE(f.read("big.txt").is_error);
    std::vector<std::string> headlines;
    f.ctx.approve = approving([&headlines](const tools::ApprovalRequest& ask) { headlines.push_back(ask.headline); },
                              tools::ApprovalSource::policy);
    const auto r = f.call(tools::write_handler(), {{"file_path", f.path("big.txt")}, {"content", kept}});
    INFO(r.text);
    REQUIRE_FALSE(r.is_error);
    REQUIRE(headlines.size() == 1);
    CHECK(headlines.front() == "removes 412 of 480 lines");
    CHECK(has(r.text, "Note: big.txt removes 412 of 480 lines, most of the file; check that nothing was left out."));
    CHECK(has(r.structured["summary"].get<std::string>(), "removes 412 of 480 lines"));
    CHECK(f.get("big.txt") == kept);
    // A smaller cut says nothing.
    headlines.clear();
    const auto small = f.call(tools::edit_handler(),
                              {{"file_path", f.path("big.txt")}, {"old_string", "line 68\n"}, {"new_string", ""}});
    INFO(small.text);
    REQUIRE_FALSE(small.is_error);
    REQUIRE(headlines.size() == 1);
    CHECK(headlines.front() == "");
    CHECK_FALSE(has(small.text, "most of the file"));
}
