// The elision markers models really write (each row names where it was seen), the real lines that
// look like them and must pass, and the rule that decides whether a change drops lines for one
// (issue 42, part 1).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "text/diff/elision.hpp"

namespace {

struct Row {
    const char* path;    // the file the text is written to (only its suffix matters)
    const char* text;    // the new text; its last line is the one judged
    const char* source;  // where the shape was seen
};

// "1, 2, 5" / "a | b": lists as a failure prints them.
template <class T>
std::string list(const std::vector<T>& items, const char* separator = ", ") {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += separator;
        if constexpr (std::is_same_v<T, std::string>)
            out += item;
        else
            out += std::to_string(item);
    }
    return out;
}

// The last line of `text` is a marker (with the lines before it as context).
bool last_line_is_marker(const Row& row) {
    std::string_view text = row.text;
    std::size_t lines = 1;
    for (const char c : text) lines += c == '\n';
    const auto found = text::elision_marker_lines(text, row.path);
    return !found.empty() && found.back() == lines - 1;
}

// Real elisions: each must be found.
constexpr Row markers[] = {
    {"a.py", "def a(): return 10\n# ... rest of the code unchanged ...",
     "issue 42's own repro (write over three functions)"},
    {"a.py", "# ... (keep the rest of the file unchanged)", "cline/cline#534 (Cline overwriting code)"},
    {"a.py", "# ... (keep the existing imports and other functions)", "cline/cline#534"},
    {"a.py", "# old code remains the same", "cline/cline#214 (\"old code remains the same\")"},
    {"a.js", "// rest of code here", "cline/cline#214 and cline/cline#14 (\"// rest of code here\")"},
    {"a.ts", "// ... previous code remains the same", "stackblitz/bolt.new#5234"},
    {"a.ts", "// rest of the code will remain same", "stackblitz/bolt.new#5417 ('rest of the code will remain same')"},
    {"a.ts", "[Previous content from line 1-305 remains exactly the same]",
     "Roo Code detect-omission tests (square bracket line range)"},
    {"a.ts", "// Lines 1-50 remain unchanged", "Roo Code detect-omission tests (single-line comment omission)"},
    {"a.ts", "function hello() {\n  // ...existing code...",
     "VS Code Copilot insert_edit_into_file convention (\"// ...existing code...\")"},
    {"a.ts", "// ... existing code ...",
     "Cursor's edit_file tool prompt (\"// ... existing code ...\"), Continue's edit rules"},
    {"a.js", "// ... rest of code", "a public 'no lazy implementation' agent rules file (code corpus)"},
    {"a.js", "// ... same as above", "the same 'no lazy implementation' rules file"},
    {"a.js", "// rest unchanged", "a public 'zero-truncation policy' agent rules file (code corpus)"},
    {"a.js", "/* ... */", "the same 'zero-truncation policy' file (\"// ...\", \"/* ... */\", \"...\")"},
    {"a.js", "var x = 1;\n...",
     "the same 'zero-truncation policy' file; kyma-project/community#361 (\"...\" for omitted code)"},
    {"a.js", "// first part of script omitted for brevity", "DiscoverMeteor/book#108"},
    {"a.py", "# (unchanged)", "issue 42's list of shapes"},
    {"a.md", "[...]", "issue 42's list of shapes"},
    {"a.py", "# ... (same as before)", "issue 42's list of shapes"},
    {"a.js", "// existing code here", "issue 42's list of shapes"},
    {"a.java", "    // ... other methods ...", "issue 42's list of shapes"},
    {"a.html", "<!-- rest of file -->", "issue 42's list of shapes; HTML comment patterns of Cline's omission check"},
    {"a.sql", "-- snip --", "issue 42's list of shapes"},
    {"a.tsx", "      {/* ... */}",
     "JSX comment opener in Cline's omission check (julesmons/cline omission/constants.ts)"},
    {"a.py", "# …", "Unicode ellipsis in Cline's omission keywords"},
    {"a.py", "# etc.", "'etc' in Cline's omission keywords and the zero-truncation rules file"},
    {"a.lua", "-- ... rest of the function ...", "Lua/SQL comment syntax, same words as cline/cline#534"},
    {"a.lisp", ";; ... remaining definitions unchanged", "Lisp comment syntax"},
    {"a.tex", "% ... rest of the document ...", "LaTeX comment syntax"},
    {"a.vb", "' ... existing code ...", "VB comment syntax, Cursor's words"},
    {"a.bat", "REM rest of the script unchanged", "batch comment syntax"},
    {"a.py", "    \"\"\"...\"\"\"", "a docstring holding only an ellipsis"},
    {"a.go", "\t// ... rest of handleRequest unchanged", "a name after the ellipsis (cline/cline#534's shape)"},
    {"a.c", "/* [... 200 lines omitted ...] */", "'omitted' in the zero-truncation rules file"},
    {"a.txt", "<snip>", "the snip convention of mailing lists"},
    {"a.js", "// ... 50 more lines ...", "Roo Code detect-omission tests' line counts"},
    {"a.py", "# no changes needed here", "issue 42's words (\"no changes\")"},
};

// Real content that looks like an elision: each must pass.
constexpr Row real_lines[] = {
    {"a.py", "# rest of the world", "issue 42: a real comment"},
    {"a.jsonl", "# The file is unchanged.",
     "this repository's tests/transcripts/cancellation.jsonl (the real-history sample refused it)"},
    {"a.py", "# The output is the same as before.", "a test's comment stating a result"},
    {"a.js", "// the existing user is reused", "the brief: a real comment using 'existing'"},
    {"a.py", "# same as the C version", "the brief: a real comment using 'same as'"},
    {"a.py", "def f(): ...", "a Python stub on one line"},
    {"a.py", "class P(Protocol):\n    def f(self) -> int:\n        ...",
     "a Python Ellipsis body (the line before ends with ':')"},
    {"a.pyi", "x: int\n...", "a .pyi stub file: '...' is real there"},
    {"a.py", "    >>> for i in range(2):\n    ...     print(i)\n    ...", "a doctest continuation line"},
    {"a.yaml", "a: 1\n...", "YAML's document end marker"},
    {"a.md", "The server waits ... and then answers.", "Markdown prose quoting '...'"},
    {"a.md", "As the paper says [...] the bound holds.", "'[...]' as a citation inside prose"},
    {"a.js", "  ...args,", "a JS spread"},
    {"a.js", "const f = (...rest) => rest;", "a JS rest parameter"},
    {"a.go", "func f(names ...string) {}", "a Go variadic parameter"},
    {"a.js", "// rest of the items are sorted by date", "a real comment using 'rest'"},
    {"a.py", "# previous version used a lock here", "a real comment using 'previous'"},
    {"a.sh", "#!/bin/sh", "a shebang"},
    {"a.md", "---", "a Markdown rule / YAML document start"},
    {"a.c", "#include <stdio.h>", "a preprocessor line"},
    {"a.md", "[docs](https://example.com/...)", "a Markdown link"},
    {"a.py", "# Remaining budget is checked in update()", "a real comment using 'remaining'"},
    {"a.sql", "-- omitted rows are counted in the report", "a real SQL comment using 'omitted'"},
    {"a.py", "#", "an empty comment"},
    {"a.py", "    # -------------------------", "a comment rule"},
    {"a.py", "# the value remains the same", "a real comment using 'remains the same'"},
    {"a.js", "// keep the loop body the same", "a real comment using 'keep' and 'same'"},
    {"a.py", "# More tests", "a section heading in a test file"},
};

}  // namespace

TEST_CASE("elision markers: the shapes models write are found, each with its source") {
    for (const Row& row : markers) {
        INFO("source: " << std::string(row.source) << "\ntext: " << std::string(row.text));
        CHECK(last_line_is_marker(row));
    }
    CHECK(std::size(markers) >= 20);
}

TEST_CASE("elision markers: real lines that look like them are not") {
    for (const Row& row : real_lines) {
        INFO("why: " << std::string(row.source) << "\ntext: " << std::string(row.text));
        CHECK_FALSE(last_line_is_marker(row));
    }
    CHECK(std::size(real_lines) >= 10);
}

TEST_CASE(
    "find_elision: a new marker where real lines are dropped, not one already there or one that replaces nothing") {
    const std::string three = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n";
    SUBCASE("the issue's write: two functions gone") {
        const auto found =
            text::find_elision(three, "def a(): return 10\n# ... rest of the code unchanged ...\n", "a.py");
        REQUIRE(found.has_value());
        CHECK(found->marker_line == 2);
        CHECK(found->marker == "# ... rest of the code unchanged ...");
        CHECK(list(found->dropped) == "1, 2, 5, 6, 9, 10");
        CHECK(list(found->dropped_text, " | ") == "def a(): | return 1 | def b():");
        const std::string message = text::elision_refusal(*found, "a.py", "write");
        INFO(message);
        CHECK(message.find("line 2 of the new text of a.py, `# ... rest of the code unchanged ...`") !=
              std::string::npos);
        CHECK(message.find("would drop 6 lines of the file that the new text does not keep: lines 1-2, 5-6, 9-10") !=
              std::string::npos);
        CHECK(message.find("Nothing was written.") != std::string::npos);
        CHECK(message.find("Send the whole content with nothing left out, or use edit") != std::string::npos);
    }
    SUBCASE("an edit of one body: the marker stands for the lines of its own run") {
        const auto found = text::find_elision(
            three, "def a():\n    # ...\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n", "a.py");
        REQUIRE(found.has_value());
        CHECK(found->marker_line == 2);
        CHECK(list(found->dropped) == "2");
    }
    SUBCASE("the marker already in the file") {
        const std::string with_marker = "x = 1\n# ... (unchanged) ...\ny = 2\nz = 3\n";
        CHECK_FALSE(text::find_elision(with_marker, "x = 1\n  # ... (unchanged) ...\n", "a.py").has_value());
    }
    SUBCASE("a marker that replaces no lines (pure insertion)") {
        CHECK_FALSE(text::find_elision(three, three + "# ... rest of the code unchanged ...\n", "a.py").has_value());
    }
    SUBCASE("lines dropped with no marker") {
        CHECK_FALSE(text::find_elision(three, "def a():\n    return 1\n", "a.py").has_value());
    }
    SUBCASE("only blank lines dropped") {
        CHECK_FALSE(text::find_elision("a\n\n\nb\n", "a\n// ...\nb\n", "a.js").has_value());
    }
    SUBCASE("a marker apart from the lines dropped still counts them") {
        const auto found = text::find_elision("a\nb\nc\nd\ne\n", "// ...existing code...\na\nb\nc\n", "a.js");
        REQUIRE(found.has_value());
        CHECK(found->marker_line == 1);
        CHECK(list(found->dropped) == "4, 5");
    }
    SUBCASE("CRLF and a BOM") {
        const auto found =
            text::find_elision("\xEF\xBB\xBFx = 1\r\ny = 2\r\n", "\xEF\xBB\xBFx = 1\r\n# ...\r\n", "a.py");
        REQUIRE(found.has_value());
        CHECK(found->marker_line == 2);
        CHECK(list(found->dropped) == "2");
    }
}

TEST_CASE("removal_headline: over half of a file over 20 lines removed") {
    CHECK(text::removal_headline(412, 2, 480) == "removes 412 of 480 lines");
    CHECK(text::removal_headline(480, 480, 480).empty());  // a rewrite of every line removes nothing on balance
    CHECK(text::removal_headline(20, 0, 20).empty());      // a file of 20 lines is small
    CHECK(text::removal_headline(11, 0, 21) == "removes 11 of 21 lines");
    CHECK(text::removal_headline(10, 0, 21).empty());
    CHECK(text::count_lines("") == 0);
    CHECK(text::count_lines("a\nb") == 2);
    CHECK(text::count_lines("a\nb\n") == 2);
}
