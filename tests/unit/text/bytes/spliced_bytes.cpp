// Unit tests of text/spliced_bytes: the parts of a spliced file are the bytes splice() makes, their
// comparisons and common ends agree with the joined bytes, and the diff of a splice is the diff of
// the whole files (line numbers, context, CRLF, final newlines), on random files.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "random_text.hpp"
#include "text/bytes/byte_scan.hpp"
#include "text/bytes/spliced_bytes.hpp"
#include "text/diff/unified_diff.hpp"

namespace {

std::vector<text::Replacement> random_replacements(std::mt19937& rng, std::size_t size, const char* alphabet) {
    std::vector<text::Replacement> out;
    std::size_t at = 0;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n && at <= size; ++i) {
        const std::size_t begin = at + rng() % (size - at + 1);
        const std::size_t end = begin + rng() % (size - begin + 1) / 4;
        out.push_back({begin, end, test_text::random_text(rng, rng() % 12, alphabet)});
        at = end;
    }
    return out;
}

}  // namespace

TEST_CASE("splice_span: the parts over the old bytes are what splice() makes") {
    std::mt19937 rng(7);
    for (int round = 0; round < 500; ++round) {
        const std::string old = test_text::random_text(rng, rng() % 80, "ab\n\r\t ");
        const auto replacements = random_replacements(rng, old.size(), "xy\n\r");
        for (const std::string_view newline : {"\n", "\r\n"}) {
            const auto whole = text::splice(old, replacements, newline);
            const auto span = text::splice_span(old, replacements, newline);
            REQUIRE(whole);
            REQUIRE(span);
            const text::ByteParts parts = span->over(old);
            CHECK(parts.joined() == *whole);
            CHECK(parts == *whole);
            CHECK(parts.size() == whole->size());
            CHECK(span->size_over(old) == whole->size());
            CHECK(span->changes_nothing(old) == (*whole == old));
        }
    }
}

TEST_CASE("splice_span: ranges out of order or outside the file are refused") {
    const std::vector<text::Replacement> outside{{2, 9, "x"}};
    CHECK(!text::splice_span("abc", outside, "\n"));
    const std::vector<text::Replacement> overlapping{{0, 2, "x"}, {1, 3, "y"}};
    CHECK(!text::splice_span("abcd", overlapping, "\n"));
    const auto none = text::splice_span("abc", std::vector<text::Replacement>{}, "\n");
    REQUIRE(none);
    CHECK(none->changes_nothing("abc"));
}

TEST_CASE("ByteParts: equality, and common ends with a string, as for the joined bytes") {
    std::mt19937 rng(11);
    for (int round = 0; round < 2000; ++round) {
        const std::string joined = test_text::random_text(rng, rng() % 20, "ab");
        const std::size_t a = rng() % (joined.size() + 1);
        const std::size_t b = a + rng() % (joined.size() - a + 1);
        const std::string_view v = joined;
        text::ByteParts parts;
        parts.parts = {v.substr(0, a), v.substr(a, b - a), v.substr(b)};
        parts.count = 3;
        const std::string other = test_text::random_text(rng, rng() % 20, "ab");
        CHECK((parts == other) == (joined == other));
        CHECK(text::common_prefix(other, parts) == text::common_prefix(other, joined));
        const std::size_t limit = rng() % 25;
        CHECK(text::common_suffix(other, parts, limit) == text::common_suffix(other, joined, limit));
    }
}

TEST_CASE("unified_diff of a splice: the same diff as of the whole files") {
    std::mt19937 rng(5);
    const char* const alphabets[] = {"ab\n", "ab\r\n", "a\n\n\n", "ab \t\n\r"};
    for (int round = 0; round < 3000; ++round) {
        const char* alphabet = alphabets[round % 4];
        std::string old = test_text::random_text(rng, rng() % 200, alphabet);
        if (round % 7 == 0) old = "\xEF\xBB\xBF" + old;  // a BOM
        const auto replacements = random_replacements(rng, old.size(), alphabet);
        const auto span = text::splice_span(old, replacements, round % 2 ? "\r\n" : "\n");
        REQUIRE(span);
        const std::string whole = span->over(old).joined();
        text::DiffOptions options;
        options.old_path = "f.txt";
        options.context = round % 5;
        options.exact_lines = round % 3 == 0;
        const text::UnifiedDiff expected = text::unified_diff(old, whole, options);
        const text::UnifiedDiff got = text::unified_diff(old, *span, options);
        INFO("old: ", old, "\nnew: ", whole);
        CHECK(got.text == expected.text);
        CHECK(got.additions == expected.additions);
        CHECK(got.removals == expected.removals);
        CHECK(got.first_changed_line == expected.first_changed_line);
        CHECK(got.hunks == expected.hunks);
        CHECK(got.truncated == expected.truncated);
    }
}

TEST_CASE("unified_diff of a splice: a NUL byte anywhere in the file makes it git's binary line") {
    std::string old = "line\n" + std::string(1, '\0') + "\n" + std::string(5000, 'x') + "\nchange me\n";
    text::SplicedBytes change{old.size() - 10, 9, "changed"};
    text::DiffOptions options;
    options.old_path = "b.bin";
    CHECK(text::unified_diff(old, change, options).text == "Binary files a/b.bin and b/b.bin differ\n");
}

TEST_CASE("spliced_between: the smallest span that turns one text into the other") {
    std::mt19937 rng(3);
    for (int round = 0; round < 2000; ++round) {
        const std::string old = test_text::random_text(rng, rng() % 30, "ab\n");
        const std::string now = test_text::random_text(rng, rng() % 30, "ab\n");
        const text::SplicedBytes span = text::spliced_between(old, now);
        CHECK(span.over(old).joined() == now);
        CHECK(span.changes_nothing(old) == (old == now));
        // Smallest: it neither starts nor ends with a byte both sides keep there.
        if (span.replaced > 0 && !span.with.empty()) {
            CHECK(old[span.at] != span.with.front());
            CHECK(old[span.at + span.replaced - 1] != span.with.back());
        }
    }
}
