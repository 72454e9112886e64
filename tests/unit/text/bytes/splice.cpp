// Unit tests of text::splice, insert_lines and adapt_whole_content: the bytes outside the change
// stay as they were, inserted text takes the file's newline style, final newlines are kept.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/bytes/splice.hpp"

using text::Replacement;

namespace {

std::string spliced(std::string_view bytes, std::vector<Replacement> replacements) {
    auto r = text::splice(bytes, replacements);
    if (!r) return "ERROR: " + r.error().message;
    return std::move(r.value());
}

std::string inserted(std::string_view bytes, long long line, std::string_view text) {
    auto r = text::insert_lines(bytes, line, text);
    if (!r) return "ERROR: " + r.error().message;
    return std::string(bytes.substr(0, r->at)) + r->text + std::string(bytes.substr(r->at));
}

}  // namespace

TEST_CASE("splice: ranges replaced, everything else byte for byte") {
    CHECK(spliced("hello world", {{0, 5, "bye"}}) == "bye world");
    CHECK(spliced("abcdef", {{1, 2, "X"}, {4, 4, "Y"}}) == "aXcdYef");
    CHECK(spliced("abc", {}) == "abc");
    CHECK(spliced("abc", {{0, 3, ""}}) == "");
    // No final newline stays none; a final newline stays.
    CHECK(spliced("a\nb", {{2, 3, "c"}}) == "a\nc");
    CHECK(spliced("a\nb\n", {{2, 3, "c"}}) == "a\nc\n");
    // Bytes that are not UTF-8 and the BOM are not touched.
    CHECK(spliced("\xEF\xBB\xBF"
                  "caf\xE9\n\xFF",
                  {{3, 4, "C"}}) ==
          "\xEF\xBB\xBF"
          "Caf\xE9\n\xFF");
}

TEST_CASE("splice: replacement text is literal") {
    CHECK(spliced("x", {{0, 1, "$1 $& $$ \\1 \\n"}}) == "$1 $& $$ \\1 \\n");
}

TEST_CASE("splice: inserted newlines take the file's dominant style") {
    CHECK(spliced("a\r\nb\r\n", {{3, 4, "X\nY"}}) == "a\r\nX\r\nY\r\n");
    CHECK(spliced("a\r\nb\r\n", {{3, 4, "X\r\nY"}}) == "a\r\nX\r\nY\r\n");
    CHECK(spliced("a\rb\r", {{2, 3, "X\nY"}}) == "a\rX\rY\r");
    CHECK(spliced("a\nb\n", {{2, 3, "X\r\nY\rZ"}}) == "a\nX\nY\nZ\n");
    // Mixed: two CRLF against one LF, CRLF wins.
    CHECK(spliced("a\r\nb\r\nc\n", {{0, 1, "1\n2"}}) == "1\r\n2\r\nb\r\nc\n");
    // An explicit newline.
    auto r = text::splice("a\nb", std::vector<Replacement>{{0, 1, "x\ny"}}, "\r\n");
    REQUIRE(r.ok());
    CHECK(r.value() == "x\r\ny\nb");
    CHECK(text::with_newlines("a\r\nb\rc\nd", "\n") == "a\nb\nc\nd");
}

TEST_CASE("splice: bad ranges are errors, not crashes") {
    CHECK(spliced("abc", {{2, 5, "x"}}) == "ERROR: replacement 0 [2, 5) is outside the file (3 bytes)");
    CHECK(spliced("abc", {{2, 1, "x"}}) == "ERROR: replacement 0 [2, 1) is outside the file (3 bytes)");
    CHECK(spliced("abcdef", {{2, 4, "x"}, {3, 5, "y"}}) ==
          "ERROR: replacement 1 overlaps the one before it or is out of order");
    CHECK(spliced("abcdef", {{4, 5, "x"}, {0, 1, "y"}}) ==
          "ERROR: replacement 1 overlaps the one before it or is out of order");
}

TEST_CASE("insert_lines: positions 0, N, -1") {
    const std::string file = "one\ntwo\nthree\n";
    CHECK(inserted(file, 0, "zero") == "zero\none\ntwo\nthree\n");
    CHECK(inserted(file, 1, "one and a half") == "one\none and a half\ntwo\nthree\n");
    CHECK(inserted(file, 3, "four") == "one\ntwo\nthree\nfour\n");
    CHECK(inserted(file, -1, "four\nfive\n") == "one\ntwo\nthree\nfour\nfive\n");
    CHECK(inserted(file, 2, "") == "one\ntwo\n\nthree\n");
    CHECK(inserted(file, 2, "\n\n") == "one\ntwo\n\n\nthree\n");

    auto r = text::insert_lines(file, 2, "a\nb");
    REQUIRE(r.ok());
    CHECK(r->first_line == 3);
    CHECK(r->line_count == 2);
    auto end = text::insert_lines(file, -1, "x");
    REQUIRE(end.ok());
    CHECK(end->first_line == 4);
}

TEST_CASE("insert_lines: at the end of a file without a final newline") {
    // The contract: a newline goes before the text, and the file stays without a final newline.
    CHECK(inserted("one\ntwo", -1, "three") == "one\ntwo\nthree");
    CHECK(inserted("one\ntwo", 2, "three\nfour\n") == "one\ntwo\nthree\nfour");
    CHECK(inserted("one\r\ntwo", -1, "three") == "one\r\ntwo\r\nthree");
    // Elsewhere in such a file nothing special happens.
    CHECK(inserted("one\ntwo", 1, "x") == "one\nx\ntwo");
    CHECK(inserted("one\ntwo", 0, "x") == "x\none\ntwo");
}

TEST_CASE("insert_lines: CRLF, CR, BOM, empty file, Latin-1") {
    CHECK(inserted("a\r\nb\r\n", 1, "x\ny") == "a\r\nx\r\ny\r\nb\r\n");
    CHECK(inserted("a\rb\r", -1, "c") == "a\rb\rc\r");
    CHECK(inserted("\xEF\xBB\xBF"
                   "a\n",
                   0, "first") ==
          "\xEF\xBB\xBF"
          "first\na\n");
    CHECK(inserted("", 0, "x") == "x\n");
    CHECK(inserted("", -1, "x") == "x\n");
    CHECK(inserted("\xE9t\xE9\n", -1, "\xE0") == "\xE9t\xE9\n\xE0\n");
}

TEST_CASE("insert_lines: bad lines are errors") {
    CHECK(inserted("a\nb\n", 3, "x") ==
          "ERROR: line 3 is past the end of the file, which has 2 lines. Use line 2 or -1 to add at the end.");
    CHECK(inserted("", 1, "x") ==
          "ERROR: line 1 is past the end of the file, which has 0 lines. Use line 0 or -1 to add at the end.");
    CHECK(inserted("a", -2, "x") ==
          "ERROR: line must be 0 (before the first line), N (after line N) or -1 (at the end); got -2");
}

TEST_CASE("adapt_whole_content: the existing file's conventions are kept") {
    auto crlf = text::adapt_whole_content("a\r\nb\r\n", "x\ny\n");
    CHECK(crlf.bytes == "x\r\ny\r\n");
    CHECK(crlf.kept_line_ending);
    CHECK_FALSE(crlf.kept_bom);
    CHECK(crlf.line_ending == text::LineEnding::crlf);
    CHECK(crlf.note == "kept the file's CRLF line endings");

    auto bom = text::adapt_whole_content(
        "\xEF\xBB\xBF"
        "a\n",
        "x\n");
    CHECK(bom.bytes ==
          "\xEF\xBB\xBF"
          "x\n");
    CHECK(bom.kept_bom);
    CHECK(bom.note == "kept the file's UTF-8 BOM");

    auto both = text::adapt_whole_content(
        "\xEF\xBB\xBF"
        "a\r\n",
        "x\ny");
    CHECK(both.bytes ==
          "\xEF\xBB\xBF"
          "x\r\ny");
    CHECK(both.note == "kept the file's CRLF line endings and UTF-8 BOM");

    auto cr = text::adapt_whole_content("a\rb\r", "x\n");
    CHECK(cr.bytes == "x\r");
    CHECK(cr.note == "kept the file's CR line endings");

    // What the content says explicitly is taken as it is.
    auto lf = text::adapt_whole_content("a\nb\n", "x\r\ny\r\n");
    CHECK(lf.bytes == "x\r\ny\r\n");
    CHECK(lf.note.empty());
    auto mixed = text::adapt_whole_content("a\r\nb\r\n", "x\r\ny\n");
    CHECK(mixed.bytes == "x\r\ny\n");
    CHECK_FALSE(mixed.kept_line_ending);
    auto own_bom = text::adapt_whole_content(
        "\xEF\xBB\xBF"
        "a\n",
        "\xEF\xBB\xBF"
        "x\n");
    CHECK(own_bom.bytes ==
          "\xEF\xBB\xBF"
          "x\n");
    CHECK_FALSE(own_bom.kept_bom);
    auto single = text::adapt_whole_content("a\r\n", "no newline");
    CHECK(single.bytes == "no newline");
    CHECK(single.note.empty());
}
