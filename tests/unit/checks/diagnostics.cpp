// Unit tests of checks/diagnostics: findings read from real tool output, and new versus fixed.
#include <doctest/doctest.h>

#include "checks/diagnostics.hpp"

using checks::Diagnostic;
using checks::parse_diagnostics;

TEST_CASE("parse_diagnostics: GCC and Clang, relative names made absolute, context lines skipped") {
    // gcc 12 -fsyntax-only d.c, run in /w
    const std::string gcc =
        "d.c: In function \xE2\x80\x98main\xE2\x80\x99:\n"
        "d.c:1:22: error: expected expression before \xE2\x80\x98;\xE2\x80\x99 token\n"
        "    1 | int main() { int x = ; return y; }\n"
        "      |                      ^\n"
        "d.c:1:31: note: each undeclared identifier is reported only once for each function it appears in\n";
    auto found = checks::parse_diagnostics(gcc, "/w/d.c", "/w");
    REQUIRE(found.size() == 2);
    CHECK(found[0].file == "/w/d.c");
    CHECK(found[0].line == 1);
    CHECK(found[0].column == 22);
    CHECK(found[0].severity == "error");
    CHECK(found[0].message == "expected expression before \xE2\x80\x98;\xE2\x80\x99 token");
    CHECK(found[1].severity == "note");
    // clang 14, an absolute path and a fatal error
    auto clang = checks::parse_diagnostics("/w/x.cpp:3:10: fatal error: 'nope.h' file not found\n1 error generated.\n",
                                           "/w/x.cpp", "/w");
    REQUIRE(clang.size() == 1);
    CHECK(clang[0].severity == "error");
    CHECK(clang[0].message == "'nope.h' file not found");
    // mypy: no column
    auto mypy = checks::parse_diagnostics(
        "a.py:4: error: Incompatible return value type (got \"str\", expected \"int\")  [return-value]\n", "/w/a.py",
        "/w");
    REQUIRE(mypy.size() == 1);
    CHECK(mypy[0].line == 4);
    CHECK(mypy[0].column == 0);
}

TEST_CASE("parse_diagnostics: tsc compact, ESLint unix and compact") {
    auto tsc = checks::parse_diagnostics(
        "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n", "/w/src/a.ts", "/w");
    REQUIRE(tsc.size() == 1);
    CHECK(tsc[0].file == "/w/src/a.ts");
    CHECK(tsc[0].line == 3);
    CHECK(tsc[0].column == 7);
    CHECK(tsc[0].message == "TS2322: Type 'string' is not assignable to type 'number'.");
    auto unix_form = checks::parse_diagnostics(
        "/w/a.js:1:7: 'x' is assigned a value but never used. [Error/no-unused-vars]\n", "/w/a.js", "/w");
    REQUIRE(unix_form.size() == 1);
    CHECK(unix_form[0].severity == "error");
    CHECK(unix_form[0].message == "'x' is assigned a value but never used.");
    auto compact = checks::parse_diagnostics(
        "/w/a.js: line 2, col 1, Warning - Unexpected console statement. (no-console)\n\n1 problem\n", "/w/a.js", "/w");
    REQUIRE(compact.size() == 1);
    CHECK(compact[0].line == 2);
    CHECK(compact[0].severity == "warning");
}

TEST_CASE("parse_diagnostics: Python py_compile, tracebacks and json.tool") {
    // python3.11 -m py_compile /w/a.py
    const std::string syntax = "  File \"/w/a.py\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax\n";
    auto found = checks::parse_diagnostics(syntax, "/w/a.py", "/w");
    REQUIRE(found.size() == 1);
    CHECK(found[0].file == "/w/a.py");
    CHECK(found[0].line == 1);
    CHECK(found[0].severity == "error");
    CHECK(found[0].message == "SyntaxError: invalid syntax");
    // A runtime traceback: the innermost frame
    const std::string traceback =
        "Traceback (most recent call last):\n  File \"/w/e.py\", line 5, in <module>\n    f()\n"
        "  File \"/w/e.py\", line 2, in f\n    raise ValueError(\"boom\")\nValueError: boom\n";
    auto runtime = checks::parse_diagnostics(traceback, "/w/e.py", "/w");
    REQUIRE(runtime.size() == 1);
    CHECK(runtime[0].line == 2);
    CHECK(runtime[0].message == "ValueError: boom");
    // python3 -m json.tool /w/c.json
    auto json = checks::parse_diagnostics("Expecting ':' delimiter: line 2 column 6 (char 14)\n", "/w/c.json", "/w");
    REQUIRE(json.size() == 1);
    CHECK(json[0].file == "/w/c.json");
    CHECK(json[0].line == 2);
    CHECK(json[0].column == 6);
    CHECK(json[0].message == "Expecting ':' delimiter");
    CHECK(checks::parse_diagnostics("all good\nSyntaxError: no frame before it\n", "/w/a.py", "/w").empty());
}

TEST_CASE("parse_diagnostics: bounded count and line length") {
    std::string many;
    for (int i = 1; i <= 500; ++i) many += "a.c:" + std::to_string(i) + ":1: warning: w\n";
    CHECK(checks::parse_diagnostics(many, "/w/a.c", "/w").size() == checks::max_diagnostics);
    CHECK(checks::parse_diagnostics("a.c:1:1: error: " + std::string(10000, 'x') + "\n", "/w/a.c", "/w").empty());
}

TEST_CASE("compare_diagnostics: by severity, message and line text, not by line number") {
    const std::string before_bytes = "import os\nx = undefined_a\ny = undefined_b\n";
    const std::string after_bytes = "import os\n\n\nx = undefined_a\nz = undefined_c\n";
    std::vector<checks::Diagnostic> before = {{"/w/a.py", 2, 5, "error", "undefined name", {}},
                                              {"/w/a.py", 3, 5, "error", "undefined name", {}}};
    std::vector<checks::Diagnostic> after = {{"/w/a.py", 4, 5, "error", "undefined name", {}},
                                             {"/w/a.py", 5, 5, "error", "undefined name", {}},
                                             {"/w/other.py", 1, 1, "warning", "elsewhere", {}}};
    checks::attach_line_text(before, "/w/a.py", before_bytes);
    checks::attach_line_text(after, "/w/a.py", after_bytes);
    CHECK(before[0].line_text == "x = undefined_a");
    CHECK(after[0].line_text == "x = undefined_a");
    CHECK(after[2].line_text.empty());
    auto changes = checks::compare_diagnostics(before, after);
    CHECK(changes.is_new == std::vector<bool>{false, true, true});  // line 2 moved to 4: the same finding
    REQUIRE(changes.fixed.size() == 1);
    CHECK(changes.fixed[0].line == 3);
    // Multisets: two equal findings before, one after = one fixed.
    std::vector<checks::Diagnostic> twice = {before[0], before[0]};
    auto once = checks::compare_diagnostics(twice, {before[0]});
    CHECK(once.is_new == std::vector<bool>{false});
    CHECK(once.fixed.size() == 1);
}
