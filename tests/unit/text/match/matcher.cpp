// Unit tests of text::match_edit: every matching tier, ambiguity and refusals, and the byte ranges
// mapped back through BOM, CRLF/CR, folded characters and stripped whitespace. Why old_string was
// not found: near_miss.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "text/match/matcher.hpp"
#include "text/match/near_miss.hpp"
#include "text/match/normalized_view.hpp"
#include "text/bytes/splice.hpp"

using text::EditSpec;
using text::LineRange;
using text::MatchErrorKind;
using text::MatchTier;

namespace {

// Applies one edit; returns the new bytes or "ERROR: <message>".
struct Applied {
    std::string bytes;
    std::string tier;
    std::string error;
    MatchErrorKind kind = MatchErrorKind::not_found;
};

Applied apply(std::string_view file, std::string_view old_s, std::string_view new_s, bool all = false,
              const text::MatchOptions& options = {}) {
    Applied out;
    auto m = text::match_edit(file, EditSpec{old_s, new_s, all}, options);
    if (!m) {
        out.error = m.error().message;
        out.kind = m.error().kind;
        return out;
    }
    out.tier = text::to_string(m->tier);
    auto spliced = text::splice(file, m->replacements);
    REQUIRE(spliced.ok());
    out.bytes = std::move(spliced.value());
    return out;
}

// The edit (apply's arguments) is decided by `expected_tier` and gives `expected_bytes`; failures
// name the caller's line.
#define CHECK_EDIT(expected_tier, expected_bytes, ...)  \
    do {                                                \
        const Applied edit_result = apply(__VA_ARGS__); \
        CHECK(edit_result.tier == (expected_tier));     \
        CHECK(edit_result.bytes == (expected_bytes));   \
    } while (false)

}  // namespace

TEST_CASE("matching tier 1: exact, with the byte range of the original file") {
    const std::string file = "alpha\nbeta\ngamma\n";
    auto m = text::match_edit(file, EditSpec{"beta", "BETA", false});
    REQUIRE(m.ok());
    CHECK(m->tier == MatchTier::exact);
    REQUIRE(m->replacements.size() == 1);
    CHECK(m->replacements[0].begin == 6);
    CHECK(m->replacements[0].end == 10);
    CHECK(m->replacements[0].text == "BETA");
    CHECK(m->lines[0] == LineRange{2, 2});
    CHECK(apply(file, "beta", "BETA").bytes == "alpha\nBETA\ngamma\n");
}

TEST_CASE("matching tier 1: CRLF file, needle with LF; the range covers the CRLF bytes") {
    const std::string file = "a\r\nfoo\r\nbar\r\nz\r\n";
    auto m = text::match_edit(file, EditSpec{"foo\nbar\n", "X\nY\n", false});
    REQUIRE(m.ok());
    CHECK(m->tier == MatchTier::exact);
    CHECK(m->replacements[0].begin == 3);
    CHECK(m->replacements[0].end == 13);
    CHECK(m->lines[0] == LineRange{2, 3});
    CHECK(apply(file, "foo\nbar\n", "X\nY\n").bytes == "a\r\nX\r\nY\r\nz\r\n");
    // A needle ending before the newline leaves the CRLF alone.
    CHECK(apply(file, "foo", "F").bytes == "a\r\nF\r\nbar\r\nz\r\n");
    // A needle written with CRLF itself is read the same way.
    CHECK(apply(file, "foo\r\nbar", "X\r\nY").bytes == "a\r\nX\r\nY\r\nz\r\n");
    // A needle starting with the newline starts at the CR.
    CHECK(apply(file, "\nbar", "").bytes == "a\r\nfoo\r\nz\r\n");
}

TEST_CASE("matching tier 1: mixed and CR-only line endings") {
    const std::string mixed = "a\nb\r\nc\rd\n";
    auto m = text::match_edit(mixed, EditSpec{"b\nc\nd", "B\nC", false});
    REQUIRE(m.ok());
    CHECK(m->replacements[0].begin == 2);
    CHECK(m->replacements[0].end == 8);
    CHECK(apply(mixed, "b\nc\nd", "B\nC").bytes == "a\nB\nC\n");  // dominant LF
    CHECK(apply("one\rtwo\rthree\r", "two\n", "2\n2b\n").bytes == "one\r2\r2b\rthree\r");
}

TEST_CASE("matching tier 1: BOM, no final newline, Latin-1 bytes, tabs") {
    const std::string bom = "\xEF\xBB\xBFhello world\n";
    auto m = text::match_edit(bom, EditSpec{"hello", "bye", false});
    REQUIRE(m.ok());
    CHECK(m->replacements[0].begin == 3);
    CHECK(m->replacements[0].end == 8);
    CHECK(apply(bom, "hello", "bye").bytes ==
          "\xEF\xBB\xBF"
          "bye world\n");
    CHECK(apply("\xEF\xBB\xBFx\r\ny\r\n", "x\ny", "1\n2").bytes ==
          "\xEF\xBB\xBF"
          "1\r\n2\r\n");

    CHECK(apply("a\nb", "b", "c").bytes == "a\nc");
    CHECK(apply("a\nb", "a\nb", "x\ny\n").bytes == "x\ny\n");  // the new text decides, as written

    const std::string latin1 = "caf\xE9 = 1;\n\xFF\xFE tail\n";
    CHECK(apply(latin1, "caf\xE9 = 1;", "caf\xE9 = 2;").bytes == "caf\xE9 = 2;\n\xFF\xFE tail\n");
    CHECK(apply(latin1, "tail", "end").bytes == "caf\xE9 = 1;\n\xFF\xFE end\n");

    CHECK(apply("\tif (x)\n\t\ty();\n", "\t\ty();", "\t\tz();").bytes == "\tif (x)\n\t\tz();\n");
}

TEST_CASE("replacement text is literal: no regex, no $ expansion") {
    CHECK(apply("price: 5\n", "5", "$1 $& \\1 $$").bytes == "price: $1 $& \\1 $$\n");
    CHECK(apply("a.b\naxb\n", "a.b", "c").bytes == "c\naxb\n");
}

TEST_CASE("matching tier 2: trailing whitespace ignored") {
    const std::string file = "int x = 1;   \nint y = 2;\t\nint z;\n";
    // Lines rewritten end as new_string ends them; a line new_string repeats is the file's own.
    CHECK_EDIT("trailing_whitespace", "int x = 3;\nint y = 4;\nint z;\n", file, "int x = 1;\nint y = 2;\n",
               "int x = 3;\nint y = 4;\n");
    CHECK_EDIT("trailing_whitespace", "int x = 1;   \nint y = 4;\nint z;\n", file, "int x = 1;\nint y = 2;\n",
               "int x = 1;\nint y = 4;\n");
    CHECK_EDIT("trailing_whitespace", "int x = 3;\nint y = 2;\t\nint z;\n", file, "int x = 1;\nint y = 2;",
               "int x = 3;\nint y = 2;");

    // Trailing whitespace in the needle that the file does not have.
    CHECK_EDIT("trailing_whitespace", "F\nG\n", "f(a)\ng(b)\n", "f(a)  \ng(b)", "F\nG");

    // The needle's own last line ended in blanks: it must then end at a line end in the file.
    const Applied c = apply("foobar\n", "foo  ", "x");
    CHECK(c.kind == MatchErrorKind::not_found);
    CHECK(apply("foo\nbar\n", "foo \t", "x").bytes == "x\nbar\n");

    // CRLF and trailing blanks together: the range still maps to the original bytes.
    CHECK(apply("a  \r\nb\r\n", "a\nb", "c\nd").bytes == "c\r\nd\r\n");
    CHECK(apply("a  \r\nb\r\n", "a  \nb", "c\nd").bytes == "c\r\nd\r\n");
}

TEST_CASE("matching tier 3: typographic quotes, dashes, spaces and ellipsis") {
    const Applied quotes = apply("s = \u201chello\u201d;\nt = \u2018x\u2019;\n", "s = \"hello\";", "s = \"bye\";");
    CHECK(quotes.tier == "unicode_normalized");
    // new_string takes the file's curly quotes at the places old_string had them.
    CHECK(quotes.bytes == "s = \u201cbye\u201d;\nt = \u2018x\u2019;\n");

    // The needle has the typography, the file is ASCII.
    CHECK_EDIT("unicode_normalized", "a + b\n", "a - b\n", "a \u2014 b", "a + b");

    CHECK_EDIT("unicode_normalized", "x\u00A0=\u20092\n", "x\u00A0=\u20091\n", "x = 1", "x = 2");

    CHECK_EDIT("unicode_normalized", "ok\n", "wait\u2026 done\n", "wait... done", "ok");

    // A match may not end inside a folded character: "wait.." is not a place in "wait…".
    CHECK(apply("wait\u2026\n", "wait..", "x").kind == MatchErrorKind::not_found);

    // Primes and minus sign, with CRLF around.
    CHECK_EDIT("unicode_normalized", "h = 0\r\nv = 0\r\n", "h = 5\u2032 3\u2033\r\nv = \u22121\r\n",
               "h = 5' 3\"\nv = -1", "h = 0\nv = 0");
}

TEST_CASE("matching tier 4: uniform indentation shift, new_string re-indented") {
    // The needle lacks the file's indentation: the file's prefix is added to new_string.
    const std::string file = "class A {\n    void f() {\n        g();\n    }\n}\n";
    CHECK_EDIT("indentation", "class A {\n    void f() {\n        h();\n\n        i();\n    }\n}\n", file,
               "void f() {\n    g();\n}", "void f() {\n    h();\n\n    i();\n}");

    // The needle has more indentation than the file: it is removed from new_string.
    const Applied removed =
        apply("if (a) {\n  b();\n}\n", "    if (a) {\n      b();\n    }\n", "    if (a) {\n      c();\n    }\n");
    CHECK(removed.tier == "indentation");
    CHECK(removed.bytes == "if (a) {\n  c();\n}\n");

    // Tabs in the file: the added prefix is the file's tabs.
    CHECK_EDIT("indentation", "\tif (a) {\n\t\tc();\n\t}\n", "\tif (a) {\n\t\tb();\n\t}\n", "if (a) {\n\tb();\n}",
               "if (a) {\n\tc();\n}");

    // The file indents with tabs, the needle with spaces: widths compared, the file's tabs written.
    const std::string go = "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n";
    CHECK_EDIT("indentation", "func f() {\n\tif x {\n\t\treturn 2\n\t}\n}\n", go, "    if x {\n        return 1\n    }",
               "    if x {\n        return 2\n    }");

    // And the other way round: spaces in the file, tabs in the needle.
    const std::string py = "def g():\n    if x:\n        return 2\n";
    CHECK_EDIT("indentation", "def g():\n    if x:\n        return 3\n        # done\n", py, "if x:\n\treturn 2\n",
               "if x:\n\treturn 3\n\t# done\n");

    // Lines that do not shift alike are not a match.
    CHECK(apply("  a\n    b\n", "a\nb", "x").kind == MatchErrorKind::not_found);
}

TEST_CASE("matching tier 5: line-number prefixes copied from read output") {
    const std::string file = "x\nfoo\ny\nfoo\n";
    // Duplicated text: the copied line number says which one.
    CHECK_EDIT("line_numbers", "x\nfoo\ny\nbar\n", file, "     4\tfoo", "     4\tbar");

    CHECK_EDIT("line_numbers", "a\nB\nC\n", "a\nb\nc\n", "     2\tb\n     3\tc\n", "B\nC\n");

    // new_string keeps its text when not every line of it has a prefix.
    CHECK(apply("a\nb\n", "1\ta\n2\tb", "1\tA\nB").bytes == "1\tA\nB\n");
    // Empty lines of read output ("     5\t") are empty lines.
    CHECK(apply("a\n\nb\n", "     1\ta\n     2\t\n     3\tb", "ab").bytes == "ab\n");
}

TEST_CASE("matching tier 5: Claude Code's `N→` and Roo's `N | ` prefixes, only when every line has one") {
    const std::string file = "x\nfoo\ny\nfoo\n";
    CHECK_EDIT("line_numbers", "x\nfoo\ny\nbar\n", file, "     4\u2192foo", "     4\u2192bar");
    CHECK_EDIT("line_numbers", "x\nfoo\ny\nbaz\n", file, "3 | y\n4 | foo", "3 | y\n4 | baz");
    // Roo's empty line is "N |" once the trailing space is trimmed.
    CHECK(apply("a\n\nb\n", "1 | a\n2 |\n3 | b", "ab").bytes == "ab\n");
}

TEST_CASE("replace_all: every non-overlapping place at the deciding tier") {
    CHECK(apply("a b a b a\n", "a", "c", true).bytes == "c b c b c\n");
    CHECK(apply("aaaa\n", "aa", "b", true).bytes == "bb\n");
    CHECK(apply("x\r\ny\r\nx\r\n", "x\n", "z\nz\n", true).bytes == "z\r\nz\r\ny\r\nz\r\nz\r\n");
    // Exact places decide: the tolerant ones are not added.
    CHECK(apply("f \nf\n", "f\n", "g\n", true).bytes == "f \ng\n");
    // Two places whose line blanks meet (new_string would take the blank before the second, which
    // the first replaces): both are replaced as found, not refused as overlapping (found by fuzzing).
    const Applied meeting = apply("x():\n :\n    if\n", ":\n ", " ", true);
    CHECK(meeting.error == "");
    CHECK(meeting.bytes == "x()     if\n");
    // A tolerant tier with several places and replace_all.
    // old_string shows its line's end (trailing blanks), new_string drops them: they are dropped.
    CHECK_EDIT("trailing_whitespace", "k = 2\nk = 2\n", "k = 1 \nk = 1\t\n", "k = 1  ", "k = 2", true);
    CHECK_EDIT("trailing_whitespace", "k = 2\nk = 2\n", "k = 1 \nk = 1\t\n", "k = 1\n", "k = 2\n", true);

    auto m = text::match_edit("a\na\na\n", EditSpec{"a", "b", true});
    REQUIRE(m.ok());
    CHECK(m->replacements.size() == 3);
    CHECK(m->lines == std::vector<LineRange>{{1, 1}, {2, 2}, {3, 3}});
}

TEST_CASE("ambiguity: every place listed, and the next call named") {
    auto m = text::match_edit("x = 1\ny = 2\nx = 1\ny = 2\nx = 1\n", EditSpec{"x = 1\ny = 2", "z", false});
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().kind == MatchErrorKind::ambiguous);
    CHECK(m.error().place_count == 2);
    CHECK(m.error().places == std::vector<LineRange>{{1, 2}, {3, 4}});
    CHECK(m.error().message ==
          "old_string matches 2 places in the file (at lines 1-2, 3-4), but it must match exactly one. Include "
          "more of the surrounding lines in old_string so that it matches only the place meant, or set "
          "replace_all to true to change all 2.");

    auto t = text::match_edit("a \nb\na\t\n", EditSpec{"a  \n", "c\n", false});
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().tier == MatchTier::trailing_whitespace);
    CHECK(t.error().message.starts_with(
        "old_string matches 2 places when trailing whitespace is ignored (at lines 1, 3),"));
}

TEST_CASE("start_line_hint picks the nearest place when it is unique") {
    text::MatchOptions options;
    options.start_line_hint = 6;
    CHECK(apply("a\nx\nb\nx\nc\nd\nx\n", "x", "y", false, options).bytes == "a\nx\nb\nx\nc\nd\ny\n");
    options.start_line_hint = 3;  // lines 2 and 4 are equally near
    CHECK(apply("a\nx\nb\nx\nc\n", "x", "y", false, options).kind == MatchErrorKind::ambiguous);
}

TEST_CASE("empty and identical strings are refused") {
    auto e = text::match_edit("abc", EditSpec{"", "x", false});
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().kind == MatchErrorKind::empty_old_string);
    auto same = text::match_edit("abc", EditSpec{"b", "b", false});
    REQUIRE_FALSE(same.ok());
    CHECK(same.error().kind == MatchErrorKind::identical);
    CHECK(same.error().message ==
          "old_string and new_string are identical, so the edit would change nothing. Put the text that should "
          "replace old_string in new_string.");
}

TEST_CASE("a large file: exact match, and the range in a CRLF file") {
    std::string big;
    for (int i = 0; i < 200000; ++i) big += "line " + std::to_string(i) + " of the file\r\n";
    auto m = text::match_edit(big, EditSpec{"line 123456 of the file\n", "changed\n", false});
    REQUIRE(m.ok());
    CHECK(m->lines[0] == LineRange{123457, 123457});
    const std::string_view replaced(big.data() + m->replacements[0].begin,
                                    m->replacements[0].end - m->replacements[0].begin);
    CHECK(replaced == "line 123456 of the file\r\n");
}

TEST_CASE("property: exact replace_all on random files equals the same replacement on the LF view") {
    // Files of LF and CRLF lines (never a lone CR), optional BOM, tabs, UTF-8 and Latin-1 bytes.
    static const char* const pieces[] = {"a", "b", "ab", " ", "\t", "\n", "\r\n", "\xC3\xA9", "\xE9", "$1"};
    std::uint32_t seed = 7;
    auto next = [&seed]() {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    for (int round = 0; round < 400; ++round) {
        std::string file = next() % 3 == 0 ? "\xEF\xBB\xBF" : "";
        const std::size_t body_start = file.size();
        for (std::uint32_t n = next() % 30 + 1; n > 0; --n) file += pieces[next() % 10];
        const std::string lf = text::normalize_newlines(std::string_view(file).substr(body_start));
        if (lf.empty()) continue;
        const std::size_t b = next() % lf.size();
        const std::size_t len = next() % std::min<std::size_t>(6, lf.size() - b) + 1;
        const std::string needle = lf.substr(b, len);
        std::string replacement;
        for (std::uint32_t n = next() % 4; n > 0; --n) replacement += next() % 4 == 0 ? "\n" : pieces[next() % 5];
        if (replacement == needle) continue;
        // A replacement ending in blanks also takes the blanks that end the file's line after a
        // place (tested in agent_slips.cpp): not the plain replacement this property is about.
        if (!replacement.empty() && (replacement.back() == ' ' || replacement.back() == '\t')) continue;
        // Likewise one starting with blanks takes the blanks that start the file's line before it.
        if (!replacement.empty() && (replacement.front() == ' ' || replacement.front() == '\t')) continue;

        auto m = text::match_edit(file, EditSpec{needle, replacement, true});
        REQUIRE(m.ok());
        CHECK(m->tier == MatchTier::exact);
        auto out = text::splice(file, m->replacements);
        REQUIRE(out.ok());

        std::string expected;  // replace_all on the LF view, left to right, non-overlapping
        for (std::size_t at = 0;;) {
            const std::size_t hit = lf.find(needle, at);
            if (hit == std::string::npos) {
                expected += lf.substr(at);
                break;
            }
            expected += lf.substr(at, hit - at) + replacement;
            at = hit + needle.size();
        }
        const std::string& result = out.value();
        CHECK(result.substr(0, body_start) == file.substr(0, body_start));  // the BOM stays
        CHECK(text::normalize_newlines(std::string_view(result).substr(body_start)) == expected);
        // Bytes before the first range and after the last are the file's own.
        const auto& first = m->replacements.front();
        const auto& last = m->replacements.back();
        CHECK(result.substr(0, first.begin) == file.substr(0, first.begin));
        CHECK(std::string_view(result).substr(result.size() - (file.size() - last.end)) ==
              std::string_view(file).substr(last.end));
    }
}

TEST_CASE("matching: an old_string starting with U+FEFF matches a file with a BOM; the BOM stays") {
    const std::string file = "\xEF\xBB\xBFkey = 1\nkey = 1\n";
    CHECK_EDIT("exact", "\xEF\xBB\xBFkey = 2\nkey = 1\n", file, "\xEF\xBB\xBFkey = 1", "key = 2");
    CHECK(apply(file, "\xEF\xBB\xBFkey = 1\n", "\xEF\xBB\xBFkey = 3\n").bytes == "\xEF\xBB\xBFkey = 3\nkey = 1\n");
    // Without a BOM in the file, U+FEFF is text like any other.
    CHECK(apply("key = 1\n", "\xEF\xBB\xBFkey = 1", "x").kind == MatchErrorKind::not_found);
}

TEST_CASE("matching tier 3: new_string keeps the file's typography where old_string had it") {
    // Kept characters take the file's form; new quotes follow the file's usage, opening or closing.
    const std::string file = "print(\u201cIt\u2019s done \u2014 ok\u201d)\n";
    CHECK_EDIT("unicode_normalized", "print(\u201cIt\u2019s done \u2014 fine\u201d)\n", file,
               "print(\"It's done - ok\")", "print(\"It's done - fine\")");
    const Applied added = apply(file, "print(\"It's done - ok\")", "print(\"It's done - ok\", \"and 'more'\")");
    CHECK(added.bytes == "print(\u201cIt\u2019s done \u2014 ok\u201d, \u201cand \u2018more\u2019\u201d)\n");
    // The other way round: the file is ASCII, old_string and new_string came back curly.
    CHECK_EDIT("unicode_normalized", "say(\"hello\", \"you\")\n", "say(\"hi\")\n", "say(\u201chi\u201d)",
               "say(\u201chello\u201d, \u201cyou\u201d)");
    // Over several CRLF lines with trailing whitespace in the file: the line new_string repeats
    // from old_string keeps the file's bytes, trailing blanks included.
    const Applied lines =
        apply("a = \u2018x\u2019  \r\nb = \u2018y\u2019\r\n", "a = 'x'\nb = 'y'", "a = 'x'\nb = 'z'\nc = 'w'");
    CHECK(lines.bytes == "a = \u2018x\u2019  \r\nb = \u2018z\u2019\r\nc = \u2018w\u2019\r\n");
}

TEST_CASE("matching tier 3: Unicode forms (NFKC): fullwidth letters, ligatures, decomposed accents") {
    // The file has fullwidth letters; old_string is ASCII.
    CHECK_EDIT("unicode_normalized", "id = XYZ\nnext\n", "id = \uFF21\uFF22\uFF23\nnext\n", "id = ABC", "id = XYZ");
    // A ligature in the file, the letters in old_string; and the reverse.
    CHECK_EDIT("unicode_normalized", "a file\n", "the \uFB01le\n", "the file", "a file");
    CHECK(apply("the file\n", "the \uFB01le", "a file").bytes == "a file\n");
    // Decomposed accents (e + U+0301) in the file, composed in old_string, with CRLF; bytes around kept.
    CHECK_EDIT("unicode_normalized", "x\r\nth\u00E9\r\ny\r\n",
               "x\r\ncaf"
               "e\u0301 au lait\r\ny\r\n",
               "caf\u00E9 au lait", "th\u00E9");
    // A place may not end inside a folded cluster: "caf" + "e" is not a place in "café" decomposed.
    CHECK(apply("cafe\u0301\n", "cafe", "x").kind == MatchErrorKind::not_found);
    // Superscripts read as digits only through NFKC; ambiguity is still refused.
    CHECK(apply("x\u00B2 + x\u00B2\n", "x2", "y").kind == MatchErrorKind::ambiguous);
}

TEST_CASE("matching: U+FFFD in old_string stands for one byte that is not UTF-8; the bytes are kept") {
    // read shows "caf\xE9" as "caf\uFFFD": copied back, it matches, and the Latin-1 byte stays.
    CHECK_EDIT("exact", "x\r\ncaf\xE9 noir\r\n", "x\r\ncaf\xE9 au lait\r\n", "caf\uFFFD au lait", "caf\uFFFD noir");
    // Two bytes, two U+FFFDs, each kept in order; a U+FFFD only in old_string's shared end is kept too.
    CHECK(apply("a\xE9"
                "b\xFC"
                "c\n",
                "a\uFFFDb\uFFFDc", "A\uFFFDB\uFFFDC")
              .bytes ==
          "A\xE9"
          "B\xFC"
          "C\n");
    CHECK(apply("na\xEFve \xE0 la\n", "na\uFFFDve \uFFFD la", "na\uFFFDve\n\uFFFD la").bytes == "na\xEFve\n\xE0 la\n");
    CHECK(apply("na\xEFve \xE0 la\n", "na\uFFFDve \uFFFD la", "na\uFFFDf \uFFFD la").bytes ==
          "na\xEF"
          "f \xE0 la\n");
    // A U+FFFD new in new_string is written as U+FFFD.
    CHECK(apply("caf\xE9\n", "caf\uFFFD", "caf\uFFFD \uFFFD").bytes == "caf\xE9 \xEF\xBF\xBD\n");
    // Only old_string of U+FFFDs: places are the invalid bytes; two of them are ambiguous.
    CHECK(apply("\xE9\n", "\uFFFD", "e").bytes == "e\n");
    CHECK(apply("\xE9 \xE8\n", "\uFFFD", "e").kind == MatchErrorKind::ambiguous);
    // One U+FFFD is one byte: two invalid bytes need two.
    CHECK(apply("x\xE9\xE9y\n", "x\uFFFDy", "z").kind == MatchErrorKind::not_found);
    CHECK(apply("x\xE9\xE9y\n", "x\uFFFD\uFFFDy", "z").bytes == "z\n");
    // A real U+FFFD in the file is matched exactly first.
    CHECK(apply("a\uFFFDb\n", "a\uFFFDb", "c").bytes == "c\n");
    // Where U+FFFD meets a valid character, the error names the character's bytes.
    const Applied valid = apply("caf\u00E9 au lait\n", "caf\uFFFD au lait", "x");
    CHECK(valid.kind == MatchErrorKind::not_found);
    CHECK(valid.error.find(
              "old_string has U+FFFD at column 4, which matches only a byte that is not UTF-8, but the file "
              "has \\xC3\\xA9 (valid UTF-8) there: copy that character instead of U+FFFD") != std::string::npos);
}
