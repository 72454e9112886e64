// Unit tests of why old_string was not found (text::explain_not_found through text::match_edit): the
// closest region, what differs, whitespace made visible, and "already applied".
#include <doctest/doctest.h>

#include <string>

#include "text/match/line_mismatch.hpp"
#include "text/match/matcher.hpp"
#include "text/match/near_miss.hpp"
#include "text/match/normalized_view.hpp"
#include "text/bytes/splice.hpp"

using text::EditSpec;
using text::LineRange;
using text::MatchErrorKind;
using text::MatchTier;

TEST_CASE("absence: the closest region, what differs, whitespace made visible") {
    const std::string file = "def f():\n    return 1\n\ndef g():\n    return 2\n";
    auto m = text::match_edit(file, EditSpec{"def g():\n    retrun 2\n", "x", false});
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().kind == MatchErrorKind::not_found);
    CHECK(m.error().region == LineRange{4, 5});
    CHECK(m.error().message ==
          "old_string was not found in the file, not even with trailing whitespace, Unicode forms (NFKC), typographic "
          "quotes, dashes and spaces, indentation or read line-number prefixes tolerated. The closest region is lines "
          "4-5 (1 of 2 "
          "lines identical). Whitespace is shown as \u2192 for a tab and \u00B7 for a leading or trailing space:\n"
          "  line 5: text differs from column 8\n"
          "    file:       \u00B7\u00B7\u00B7\u00B7return 2\n"
          "    old_string: \u00B7\u00B7\u00B7\u00B7retrun 2\n"
          "Next: read lines 4-5 (read with offset 4 and limit 2) and retry with old_string copied exactly from "
          "there, without the line-number prefixes that read adds.");

    // Tabs, trailing spaces and curly quotes are shown and named.
    const std::string tabs = "start\n\tcall(\u2018a\u2019);  \nend\n";
    auto q = text::match_edit(tabs, EditSpec{"start\n\tcall(\"a\");\nend", "x", false});
    REQUIRE_FALSE(q.ok());
    CHECK(q.error().message.find("  line 2: text differs from column 7; the file has \u2018 (U+2018 LEFT SINGLE "
                                 "QUOTATION MARK)\n"
                                 "    file:       \u2192call(\u2018a\u2019);\u00B7\u00B7\n"
                                 "    old_string: \u2192call(\"a\");\n") != std::string::npos);

    // A needle with a newline the file's last line lacks.
    auto nl = text::match_edit("alpha\nbeta", EditSpec{"beta\n", "x", false});
    REQUIRE_FALSE(nl.ok());
    CHECK(nl.error().message.find("old_string ends with a newline, but the file's last line has none") !=
          std::string::npos);

    // Nothing alike at all.
    auto none = text::match_edit("alpha\nbeta\n", EditSpec{"zzz qqq", "x", false});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.find("No part of the file resembles it") != std::string::npos);
    CHECK_FALSE(none.error().region.has_value());

    // A single changed word is still located through the line most like it.
    auto word = text::match_edit("one\ncolor = red\nthree\n", EditSpec{"colour = red", "x", false});
    REQUIRE_FALSE(word.ok());
    CHECK(word.error().region == LineRange{2, 2});

    auto empty = text::match_edit("", EditSpec{"a", "b", false});
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message.find("The file is empty") != std::string::npos);
}

TEST_CASE("absence: the new text is already present") {
    const std::string file = "def g():\n    return 2\n    # x\n";
    auto m = text::match_edit(file, EditSpec{"def g():\n    return 3\n", "def g():\n    return 2\n    # x\n", false});
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().kind == MatchErrorKind::already_applied);
    CHECK(m.error().region == LineRange{1, 3});
    CHECK(m.error().message ==
          "old_string was not found in the file, but the new text (new_string) is already present at line 1 (lines "
          "1-3): this edit looks already applied, so nothing was changed. If it was not, read the file and retry "
          "with old_string copied from its current text.");
}

TEST_CASE("visible_whitespace") {
    CHECK(text::visible_whitespace("\t  a b  \r") == "\u2192\u00B7\u00B7a b\u00B7\u00B7\u240D");
    CHECK(text::visible_whitespace("x\xFFy") == "x\xEF\xBF\xBDy");
    CHECK(text::visible_whitespace("abcdef", 3) == "abc\u2026");
}

TEST_CASE("absence: a short or repeated new text is not taken as already applied") {
    auto short_new = text::match_edit("x = 1\n", EditSpec{"y = 2", "x", false});
    REQUIRE_FALSE(short_new.ok());
    CHECK(short_new.error().kind == MatchErrorKind::not_found);
    auto repeated = text::match_edit("return 0;\nreturn 0;\n", EditSpec{"return 1;", "return 0;", false});
    REQUIRE_FALSE(repeated.ok());
    CHECK(repeated.error().kind == MatchErrorKind::not_found);
}

TEST_CASE("absence: in a long line, the lines are shown around the first difference") {
    const std::string head(300, 'h');
    auto m = text::match_edit("a\n" + head + " tail_one\nz\n", EditSpec{head + " tail_two", "x", false});
    REQUIRE_FALSE(m.ok());
    const std::string& msg = m.error().message;
    CHECK(msg.find("  line 2: text differs from column 307\n"
                   "    file:       \u2026" +
                   std::string(54, 'h') +
                   " tail_one\n"
                   "    old_string: \u2026" +
                   std::string(54, 'h') + " tail_two\n") != std::string::npos);
}

TEST_CASE("absence: a short word that occurs still leads to the closest region") {
    // "foo" is shorter than the words searched before; the longest line is like no line of the file.
    auto m = text::match_edit("alpha\nfoo(a, c)\nomega\n", EditSpec{"foo(a, b)\nzzzzzzzzzzzzzzzzzzzz", "x", false});
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().message.find("No part of the file resembles it") == std::string::npos);
    REQUIRE(m.error().region.has_value());
    CHECK(m.error().region->first == 2);
}

TEST_CASE("absence: when nothing resembles old_string, the message says what was searched, no more") {
    auto none = text::match_edit("alpha\nbeta\n", EditSpec{"zzz qqq", "x", false});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.find(
              "No part of the file resembles it: the file has none of its lines, none of the "
              "words \"zzz\" and \"qqq\", and no line like its longest one. Next: read the file") != std::string::npos);
    CHECK(none.error().message.find("none of its lines or words occur") == std::string::npos);
}

TEST_CASE("absence: lines that look alike are told apart by their bytes") {
    // A zero-width space: both lines show as "foobar = 1".
    auto m = text::match_edit("x\nfoobar = 1\ny\n", EditSpec{"foo\u200Bbar = 1", "x", false});
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().message.find("  line 2: text differs from column 4; in bytes (\\xHH for all but printable ASCII) "
                                 "the file has foobar = 1 where old_string has foo\\xE2\\x80\\x8Bbar = 1\n") !=
          std::string::npos);
    // Latin-1 bytes (shown as U+FFFD by read) against other bytes.
    auto latin = text::match_edit("caf\xE9 au lait\n", EditSpec{"caf\xC3\xA8 au lait", "x", false});
    REQUIRE_FALSE(latin.ok());
    CHECK(latin.error().message.find(
              "line 1: text differs from column 4; the file has the byte \\xE9 at column 4, which "
              "is not UTF-8 (read shows it as U+FFFD), where old_string has \\xC3\\xA8: write one "
              "U+FFFD in old_string for each such byte and the byte is kept") != std::string::npos);
}
