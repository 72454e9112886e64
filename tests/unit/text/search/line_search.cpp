// Unit tests of text/search/line_search (grep's core): line numbers over LF, CRLF and lone CR, context
// merging, long lines cut around the match, invalid UTF-8 shown as read shows it, binary files, errors.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "text/search/line_search.hpp"

namespace {

text::LinePattern compiled(std::string_view pattern, text::PatternOptions options = {}) {
    auto p = text::LinePattern::compile(pattern, options);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error()));
    return std::move(p).value();
}

text::FileSearch run(std::string_view pattern, std::string_view bytes, std::size_t context = 0,
                     text::PatternOptions options = {}, std::size_t max_matches = 100) {
    const text::LinePattern p = compiled(pattern, options);
    text::LineMatcher m(p);
    text::SearchLimits limits;
    limits.context = context;
    limits.max_kept_matches = max_matches;
    limits.max_kept_bytes = 1 << 20;
    return m.search(bytes, limits);
}

// "N:text" for a match, "N-text" for context, "--" before a gap: grep -n's own notation (gaps only with context).
std::string shown(const text::FileSearch& s) {
    std::string out;
    for (const auto& l : s.lines) {
        if (l.gap_before) out += "--\n";
        out += std::to_string(l.number) + (l.match ? ":" : "-") + l.text + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("line_search: matching lines with their numbers, LF, CRLF and lone CR as read counts them") {
    CHECK(shown(run("b", "a\nb\nc\nab\n")) == "2:b\n4:ab\n");
    CHECK(shown(run("b", "a\r\nb\r\nc\r\nab\r\n")) == "2:b\n4:ab\n");  // the \r is not part of the text
    CHECK(shown(run("b", "a\rb\rc\rab")) == "2:b\n4:ab\n");
    CHECK(shown(run("b", "a\r\nb\rc\nab")) == "2:b\n4:ab\n");
    CHECK(shown(run("b$", "ab\r\nb x\r\n")) == "1:ab\n");  // $ before CRLF
    CHECK(shown(run("^b", "ab\nb\n")) == "2:b\n");
    CHECK(run("zzz", "a\nb\n").matching_lines == 0);
    CHECK(run("a", "").lines.empty());
}

TEST_CASE("line_search: a UTF-8 BOM is not part of line 1") {
    CHECK(shown(run("^x", "\xEF\xBB\xBFx1\nx2\n")) == "1:x1\n2:x2\n");
}

TEST_CASE("line_search: a match across a line end does not count; each line decides alone") {
    CHECK(shown(run("a\\s+b", "a\nb\na b\n")) == "3:a b\n");
    CHECK(shown(run("[^x]+end", "x\nyend\n")) == "2:yend\n");
    CHECK(shown(run("(?<=a)b", "a\nb\nab\n")) == "3:ab\n");  // lookbehind does not see the line before
}

TEST_CASE("line_search: context lines merged like grep -C, gaps marked") {
    const std::string file = "1\n2\nm3\n4\n5\n6\n7\nm8\n9\nm10\n11\n12\n";
    CHECK(shown(run("m", file, 1)) == "2-2\n3:m3\n4-4\n--\n7-7\n8:m8\n9-9\n10:m10\n11-11\n");
    CHECK(shown(run("m", file, 2)) == "1-1\n2-2\n3:m3\n4-4\n5-5\n6-6\n7-7\n8:m8\n9-9\n10:m10\n11-11\n12-12\n");
    CHECK(shown(run("m", "m1\nm2\n", 3)) == "1:m1\n2:m2\n");
    CHECK(shown(run("m", "a\r\nb\r\nm\r\nc\r\n", 1)) == "2-b\n3:m\n4-c\n");
}

TEST_CASE("line_search: past the kept bound, matching lines are counted only, and context stops with them") {
    const auto s = run("m", "m1\nx\nm2\nx\nm3\nx\nm4\n", 1, {}, 2);
    CHECK(s.matching_lines == 4);
    CHECK(s.kept_matches() == 2);
    CHECK(s.matches_dropped());
    CHECK(shown(s) == "1:m1\n2-x\n3:m2\n4-x\n");
}

TEST_CASE("line_search: literal and case-insensitive patterns") {
    CHECK(shown(run("a.b(", "axb(\na.b(\n", 0, {.literal = true})) == "2:a.b(\n");
    CHECK(shown(run("HELLO", "hello\nHeLLo\nbye\n", 0, {.case_insensitive = true})) == "1:hello\n2:HeLLo\n");
    CHECK(shown(run("ÄRGER", "ärger\n", 0, {.case_insensitive = true})) == "1:ärger\n");  // beyond ASCII
    CHECK(shown(run("A.B", "a.b\naxb\n", 0, {.literal = true, .case_insensitive = true})) == "1:a.b\n");
}

TEST_CASE("line_search: invalid UTF-8 is shown as read shows it (U+FFFD), and still searched") {
    CHECK(shown(run("caf", "caf\xE9 au lait\nok\n")) == "1:caf\xEF\xBF\xBD au lait\n");
    CHECK(shown(run("lait", "caf\xE9 au lait\n")) == "1:caf\xEF\xBF\xBD au lait\n");
    CHECK(shown(run("caf.", "caf\xC3\xA9\n")) == "1:caf\xC3\xA9\n");  // `.` is one character in UTF mode
}

TEST_CASE("line_search: a long line is cut around the match, with … where cut") {
    const std::string line = std::string(1000, 'a') + "NEEDLE" + std::string(1000, 'b');
    const auto s = run("NEEDLE", line + "\n");
    REQUIRE(s.lines.size() == 1);
    const std::string& t = s.lines[0].text;
    CHECK(t.find("NEEDLE") != std::string::npos);
    CHECK(t.rfind("\xE2\x80\xA6", 0) == 0);
    CHECK(t.size() <= 300 + 6);
    CHECK(t.substr(t.size() - 3) == "\xE2\x80\xA6");
    // Cut on character boundaries: a window over multi-byte characters stays valid UTF-8.
    std::string wide;
    for (int i = 0; i < 400; ++i) wide += "\xC3\xA9";
    const std::string cut = text::shown_line(wide, 400, 402, 300);
    CHECK(cut.size() <= 300 + 6);
    CHECK(cut.find("\xEF\xBF\xBD") == std::string::npos);
    CHECK(text::shown_line("short", 0, 1, 300) == "short");
    CHECK(text::shown_line(std::string(500, 'x'), 0, 0, 300) == std::string(300, 'x') + "\xE2\x80\xA6");
}

TEST_CASE("line_search: binary files (a NUL, a UTF-16 BOM) are not searched") {
    CHECK(run("a", std::string("a\0b\n", 4)).binary);
    CHECK(run("a", std::string(20000, 'a') + std::string("\0", 1)).binary);  // past the first 8 KiB too
    CHECK(run("a",
              "\xFF\xFE"
              "a\0")
              .binary);
    CHECK_FALSE(run("a", "a\n").binary);
}

TEST_CASE("line_search: an invalid pattern says where, why, and what to send instead") {
    auto p = text::LinePattern::compile("foo(bar", {});
    REQUIRE_FALSE(p.ok());
    const std::string& m = p.error();
    CHECK(m.find("missing closing parenthesis") != std::string::npos);
    CHECK(m.find("at offset 7") != std::string::npos);
    CHECK(m.find("literal: true") != std::string::npos);
    CHECK(m.find("`foo\\(bar`") != std::string::npos);
    CHECK(m.find("(at its end)") != std::string::npos);
    const std::string inside = text::LinePattern::compile("ab)c", {}).error();
    CHECK(inside.find("right after `ab`") != std::string::npos);
    CHECK(text::LinePattern::compile("foo(bar", {.literal = true}).ok());
    CHECK_FALSE(text::LinePattern::compile("*x", {}).ok());
}

TEST_CASE("line_search: an empty pattern matches every line; catastrophic patterns give up per line") {
    CHECK(run("", "a\nb\n").matching_lines == 2);
    const auto s = run("(a+)+$", std::string(40, 'a') + "b\nok\n");
    CHECK(s.matching_lines == 0);
}

TEST_CASE("line_search: a set stop flag ends the search where it is") {
    const text::LinePattern p = compiled("a");
    text::LineMatcher m(p);
    std::atomic<bool> stop{true};
    text::SearchLimits limits;
    limits.max_kept_matches = 10;
    limits.max_kept_bytes = 1000;
    limits.stop = &stop;
    const auto s = m.search("a\na\n", limits);
    CHECK(s.stopped);
    CHECK(s.matching_lines == 0);
    stop = false;
    CHECK(m.search("a\na\n", limits).matching_lines == 2);
}

TEST_CASE("line_search: each line is matched alone: lookahead, \\A, \\Z, (?-m) and atomic groups see no other line") {
    // Lookahead past the line's end sees nothing (the line after is not there).
    CHECK(run("foo(?=\\nbar)", "foo\nbar\n").matching_lines == 0);
    CHECK(shown(run("foo(?![\\s\\S])", "foo\nfoo\nx")) == "1:foo\n2:foo\n");
    CHECK(shown(run("o$(?!\\n)", "foo\r\nfoo\n")) == "1:foo\n2:foo\n");
    // \A and \Z (and \z) are each line's start and end.
    CHECK(shown(run("\\Afoo", "foo\nfoo\nbar foo\n")) == "1:foo\n2:foo\n");
    CHECK(shown(run("foo\\Z", "foo\nfoo\nx\n")) == "1:foo\n2:foo\n");
    CHECK(shown(run("foo\\z", "afoo\r\nfoo\n")) == "1:afoo\n2:foo\n");
    // Lookbehind before the line's start sees nothing either (a negative one then holds).
    CHECK(shown(run("(?<!\\n)b", "a\nb\n")) == "2:b\n");
    // Options that turn multiline off: ^ is still each line's start.
    CHECK(shown(run("(?-m)^b", "a\nb\n")) == "2:b\n");
    // An atomic group or possessive quantifier cannot eat the line end and fail the line.
    CHECK(shown(run("a(?>\\s*)$", "a\n  x\n")) == "1:a\n");
    CHECK(shown(run("a\\s*+$", "a\n  x\n")) == "1:a\n");
    // A backtracking verb does not end the search at the first line.
    CHECK(shown(run("a(*COMMIT)b", "ac\nab\n")) == "2:ab\n");
    CHECK(text::LinePattern::compile("a(?=b)", {}).value().each_line_alone());
    CHECK_FALSE(text::LinePattern::compile("a(?:b|c)+d", {}).value().each_line_alone());
    CHECK_FALSE(text::LinePattern::compile("(?=", {.literal = true}).value().each_line_alone());
    // The same answers with context lines, CR line ends and a BOM.
    CHECK(shown(run("\\Ab",
                    "\xEF\xBB\xBF"
                    "b1\r\na\r\nb2\r\n",
                    1)) == "1:b1\n2-a\n3:b2\n");
}

TEST_CASE("line_search: a stop flag set while one pattern runs long over a big file is seen within milliseconds") {
    // [\\s\\S]{1,4000}\\d over lines without a digit: each start position runs on for 4,000
    // characters across lines, 2 MB take half a minute in one PCRE2 call; now calls are bounded.
    std::string file;
    while (file.size() < (2u << 20)) file += std::string(79, 'a') + "\n";
    for (const bool alone : {false, true}) {
        const text::LinePattern p = compiled(alone ? "(?=a)[\\s\\S]{1,4000}\\d" : "[\\s\\S]{1,4000}\\d");
        CHECK(p.each_line_alone() == alone);
        text::LineMatcher m(p);
        std::atomic<bool> stop{false};
        text::SearchLimits limits;
        limits.max_kept_matches = 10;
        limits.max_kept_bytes = 1000;
        limits.stop = &stop;
        std::chrono::steady_clock::time_point set_at;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            set_at = std::chrono::steady_clock::now();
            stop = true;
        });
        const auto s = m.search(file, limits);
        const auto returned = std::chrono::steady_clock::now();
        stopper.join();
        const auto after_stop = std::chrono::duration_cast<std::chrono::milliseconds>(returned - set_at).count();
        MESSAGE("stop seen " << after_stop << " ms after it was set (each_line_alone " << alone << ")");
        if (returned > set_at) {  // the search may have ended on its own before the flag was set
            CHECK(s.stopped);
            CHECK(after_stop < 1000);
        }
        CHECK(s.matching_lines == 0);
    }
}

TEST_CASE("line_search: lines where the pattern gives up are counted and named by number, the others searched") {
    const std::string bad = std::string(60, 'a') + "!";
    const auto s = run("^(a|aa)+$", bad + "\naa\n" + bad + "\nx\n");
    CHECK(s.failed_lines == 2);
    CHECK(s.failed_at == std::vector<std::size_t>{1, 3});
    CHECK(shown(s) == "2:aa\n");
    // Per line as well (a lookahead makes every line its own subject).
    const auto alone = run("^(?=a)(a|aa)+$", bad + "\naa\n" + bad + "\n");
    CHECK(alone.failed_at == std::vector<std::size_t>{1, 3});
    CHECK(alone.matching_lines == 1);
}
