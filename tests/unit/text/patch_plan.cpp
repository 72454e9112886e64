// Unit tests of text::plan_file_patch: each format applied to exact bytes (CRLF, BOM, no final
// newline), hints and duplicates, overlaps, hunks off their stated lines, similarity matching.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "text/patch_detect.hpp"
#include "text/patch_plan.hpp"
#include "text/patch_similarity.hpp"

namespace {

struct Outcome {
    std::string bytes;
    std::string error;  // "" on success
    std::vector<text::BlockFailure> failures;
    std::vector<text::BlockReport> blocks;
    text::FileAction action = text::FileAction::update;
    std::optional<std::string> move_to;
};

// Parses `patch` and plans its file number `which` against `file` (nullopt: the file does not exist).
Outcome plan_and_apply(std::string_view patch, std::optional<std::string_view> file, double fuzzy = 1.0,
                       std::size_t which = 0) {
    Outcome out;
    auto parsed = text::parse_patch(patch);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error().message);
    REQUIRE(which < parsed->files.size());
    text::PlanOptions options;
    options.format = parsed->format;
    options.display_path = "f.txt";
    options.fuzzy_threshold = fuzzy;
    auto plan = text::plan_file_patch(file, parsed->files[which], options);
    if (!plan.ok()) {
        out.error = plan.error().message;
        out.failures = plan.error().failures;
        return out;
    }
    out.bytes = plan->bytes;
    out.blocks = plan->blocks;
    out.action = plan->action;
    out.move_to = plan->move_to;
    return out;
}

std::string sr(std::string_view search, std::string_view replace, std::string_view header = "") {
    return "<<<<<<< SEARCH\n" + std::string(header) + "-------\n" + std::string(search) + "=======\n" +
           std::string(replace) + ">>>>>>> REPLACE\n";
}

std::string numbered(std::size_t n, std::string_view word = "line") {
    std::string s;
    for (std::size_t i = 1; i <= n; ++i) s += std::string(word) + std::to_string(i) + "\n";
    return s;
}

}  // namespace

// ---------------------------------------------------------------- SEARCH/REPLACE

TEST_CASE("plan search/replace: blocks apply together against the original, each reported") {
    const std::string file = "alpha\nbeta\ngamma\ndelta\n";
    const Outcome o =
        plan_and_apply(sr("beta\n", "BETA\nBETA2\n") + sr("delta\n", "") + sr("alpha\n", "ALPHA\n"), file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "ALPHA\nBETA\nBETA2\ngamma\n");
    REQUIRE(o.blocks.size() == 3);
    CHECK(o.blocks[0].index == 1);
    CHECK(o.blocks[0].patch_line == 1);
    CHECK(o.blocks[0].line == 2);
    CHECK(o.blocks[0].match == text::BlockMatch::exact);
    CHECK(o.blocks[0].similarity == 1.0);
    CHECK(o.blocks[1].line == 4);
    CHECK(o.blocks[1].patch_line == 8);
    CHECK(o.blocks[2].line == 1);
}

TEST_CASE("plan search/replace: CRLF files keep CRLF, also in inserted lines; a BOM is kept") {
    CHECK(plan_and_apply(sr("b\nc\n", "B\nnew\nC\n"), "a\r\nb\r\nc\r\nd\r\n").bytes == "a\r\nB\r\nnew\r\nC\r\nd\r\n");
    CHECK(plan_and_apply(sr("a\n", "A\n"),
                         "\xEF\xBB\xBF"
                         "a\nb\n")
              .bytes ==
          "\xEF\xBB\xBF"
          "A\nb\n");
    CHECK(plan_and_apply(sr("a\nb\n", "x\n"),
                         "\xEF\xBB\xBF"
                         "a\r\nb\r\n")
              .bytes ==
          "\xEF\xBB\xBF"
          "x\r\n");
    // A CR-only file.
    CHECK(plan_and_apply(sr("b\n", "B1\nB2\n"), "a\rb\rc\r").bytes == "a\rB1\rB2\rc\r");
}

TEST_CASE("plan search/replace: a file without a final newline keeps having none") {
    CHECK(plan_and_apply(sr("b\n", "B\n"), "a\nb").bytes == "a\nB");
    CHECK(plan_and_apply(sr("b\n", "B\nC\n"), "a\r\nb").bytes == "a\r\nB\r\nC");
    CHECK(plan_and_apply(sr("b\n", ""), "a\nb").bytes == "a");
    CHECK(plan_and_apply(sr("a\nb\n", ""), "a\nb").bytes == "");
    CHECK(plan_and_apply(sr("a\n", "A\n"), "a\nb").bytes == "A\nb");
    // And a file with one keeps it when its last line is replaced or deleted.
    CHECK(plan_and_apply(sr("b\n", "B\n"), "a\nb\n").bytes == "a\nB\n");
    CHECK(plan_and_apply(sr("b\n", ""), "a\nb\n").bytes == "a\n");
}

TEST_CASE("plan search/replace: a wrong :start_line: with a unique match still applies") {
    const Outcome o = plan_and_apply(sr("line7\n", "SEVEN\n", ":start_line:30\n"), numbered(10));
    REQUIRE(o.error == "");
    CHECK(o.bytes.find("line6\nSEVEN\nline8\n") != std::string::npos);
    CHECK(o.blocks[0].line == 7);
    CHECK(o.blocks[0].stated_line == 30);
}

TEST_CASE("plan search/replace: duplicates: an error without a hint, the nearest with one") {
    const std::string file = "x = 1\nsep\nx = 1\nsep\nx = 1\n";
    const Outcome none = plan_and_apply(sr("x = 1\n", "x = 2\n"), file);
    CHECK(none.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text matches 3 places in f.txt "
          "(starting at lines 1, 3, 5). Give :start_line: with the line where the one meant starts (for example "
          ":start_line:1 right after <<<<<<< SEARCH), or include more of the surrounding lines in SEARCH so that "
          "it matches only that place.\nNothing was changed.");
    REQUIRE(none.failures.size() == 1);
    CHECK(none.failures[0].kind == text::BlockFailureKind::ambiguous);
    CHECK(none.failures[0].index == 1);

    const Outcome hinted = plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:4\n"), file);
    CHECK(hinted.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text matches 3 places in f.txt "
          "(starting at lines 1, 3, 5), and lines 3, 5 are equally near the stated line 4. Give :start_line: with "
          "the line where the one meant starts (for example :start_line:1 right after <<<<<<< SEARCH), or include "
          "more of the surrounding lines in SEARCH so that it matches only that place.\nNothing was changed.");

    const Outcome near = plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:6\n"), file);
    CHECK(near.bytes == "x = 1\nsep\nx = 1\nsep\nx = 2\n");
    CHECK(near.blocks[0].line == 5);
    CHECK(plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:3\n"), file).bytes == "x = 1\nsep\nx = 2\nsep\nx = 1\n");
}

TEST_CASE("plan search/replace: blocks are whole lines: a line equal to SEARCH wins over lines ending with it") {
    const std::string file = "if (a) {\n    }\n}\nnext\n";
    const Outcome o = plan_and_apply(sr("}\n", "} // end\n"), file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "if (a) {\n    }\n} // end\nnext\n");
    CHECK(o.blocks[0].line == 3);
}

TEST_CASE("plan search/replace: a SEARCH that starts with an empty line needs an empty line in the file") {
    const std::string patch = sr("\ndef foo():\n", "def foo2():\n");
    CHECK(plan_and_apply(patch, "x = 1\n\ndef foo():\n").bytes == "x = 1\ndef foo2():\n");
    CHECK(plan_and_apply(patch, "x = 1\r\n\r\ndef foo():\r\n").bytes == "x = 1\r\ndef foo2():\r\n");
    const Outcome o = plan_and_apply(patch, "x = 1\ndef foo():\n");
    CHECK(o.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text starts with an empty line, "
          "but in f.txt the lines that follow it (from line 2) come right after line 1, which is not empty. Remove "
          "the empty first line (from the new lines too, if they start with one), or copy the lines exactly from "
          "the file.\nNothing was changed.");
    // With an empty line elsewhere, that place is the one.
    CHECK(plan_and_apply(patch, "x = 1\ndef foo():\n\ndef foo():\n").bytes == "x = 1\ndef foo():\ndef foo2():\n");
}

TEST_CASE("plan search/replace: escaped markers apply as the markers themselves") {
    const std::string file = "keep\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n";
    const std::string patch =
        "<<<<<<< SEARCH\n\\<<<<<<< HEAD\nmine\n\\=======\ntheirs\n\\>>>>>>> other\n=======\nmine\n>>>>>>> REPLACE\n";
    CHECK(plan_and_apply(patch, file).bytes == "keep\nmine\n");
}

TEST_CASE("plan search/replace: line-number prefixes copied from read output are removed") {
    const std::string patch = sr("     2\tbeta\n     3\tgamma\n", "     2\tBETA\n     3\tgamma\n");
    const Outcome o = plan_and_apply(patch, "alpha\nbeta\ngamma\n");
    REQUIRE(o.error == "");
    CHECK(o.bytes == "alpha\nBETA\ngamma\n");
    CHECK(o.blocks[0].match == text::BlockMatch::line_numbers);
}

TEST_CASE("plan search/replace: tolerant tiers are named, indentation is carried to the new lines") {
    const Outcome o = plan_and_apply(sr("if x:\n    y()\n", "if x:\n    z()\n"), "def f():\n    if x:\n        y()\n");
    REQUIRE(o.error == "");
    CHECK(o.bytes == "def f():\n    if x:\n        z()\n");
    CHECK(o.blocks[0].match == text::BlockMatch::indentation);
    CHECK(plan_and_apply(sr("a = 1  \n", "a = 2\n"), "a = 1\n").blocks[0].match ==
          text::BlockMatch::trailing_whitespace);
}

TEST_CASE("plan search/replace: not found, already applied, identical: the matcher's explanation, all blocks") {
    const std::string file = "one\ntwo\nthree\n";
    const Outcome o = plan_and_apply(
        sr("two\n", "TWO\n") + sr("thre\n", "3\n") + sr("four\n", "4\n") + sr("one\n", "one\n"), "one\ntwo\nthree\n");
    CHECK(
        o.error.starts_with("3 of the 4 blocks for f.txt could not be applied.\n\nBlock 2 (line 7 of the diff): "
                            "SEARCH was not found in the file"));
    CHECK(o.error.find("\n\nBlock 3 (line 13 of the diff): SEARCH was not found in the file") != std::string::npos);
    CHECK(o.error.find("\n\nBlock 4 (line 19 of the diff): it changes nothing: its old and new lines are the "
                       "same.") != std::string::npos);
    CHECK(
        o.error.ends_with("\nNothing was changed: no block was applied, so send the whole diff again with the "
                          "failing blocks fixed."));
    REQUIRE(o.failures.size() == 3);
    CHECK(o.failures[0].kind == text::BlockFailureKind::not_found);
    CHECK(o.failures[0].index == 2);
    CHECK(o.failures[0].message.find("The closest region is line 3") != std::string::npos);
    CHECK(o.failures[2].kind == text::BlockFailureKind::identical);

    const Outcome done = plan_and_apply(sr("2nd line\n", "second line\n"), "one\nsecond line\nthree\n");
    REQUIRE(done.failures.size() == 1);
    CHECK(done.failures[0].kind == text::BlockFailureKind::already_applied);
    CHECK(
        done.error.starts_with("Block 1 (line 1 of the diff) could not be applied to f.txt: SEARCH was not found "
                               "in the file, but the new text (REPLACE) is already present at line 2"));
    (void)file;
}

TEST_CASE("plan search/replace: overlapping blocks are an error naming both") {
    const Outcome o = plan_and_apply(sr("b\nc\n", "BC\n") + sr("c\nd\n", "CD\n"), "a\nb\nc\nd\n");
    CHECK(o.error ==
          "Block 2 (line 8 of the diff) could not be applied to f.txt: it overlaps block 1 (line 1 of the diff): "
          "block 1 changes lines 2-3 and block 2 changes lines 3-4 of f.txt. Every block is matched against the "
          "file as it is now, so two of them must not change the same lines: merge them into one block.\n"
          "Nothing was changed: no block was applied, so send the whole diff again with the failing block fixed.");
    REQUIRE(o.failures.size() == 1);
    CHECK(o.failures[0].kind == text::BlockFailureKind::overlap);
    // Adjacent blocks do not overlap.
    CHECK(plan_and_apply(sr("b\n", "B\n") + sr("c\n", "C\n"), "a\nb\nc\nd\n").bytes == "a\nB\nC\nd\n");
}

TEST_CASE("plan search/replace: similarity matching only below threshold 1, with the similarity reported") {
    const std::string file = numbered(60, "row") + "    total = compute(a, b)\n" + numbered(5, "end");
    const std::string patch = sr("    total = compute(a, c)\n", "    total = compute(a, d)\n", ":start_line:58\n");
    const Outcome exact = plan_and_apply(patch, file);
    REQUIRE(exact.failures.size() == 1);
    CHECK(exact.failures[0].kind == text::BlockFailureKind::not_found);

    const Outcome fuzzy = plan_and_apply(patch, file, 0.9);
    REQUIRE(fuzzy.error == "");
    CHECK(fuzzy.bytes == numbered(60, "row") + "    total = compute(a, d)\n" + numbered(5, "end"));
    REQUIRE(fuzzy.blocks.size() == 1);
    CHECK(fuzzy.blocks[0].match == text::BlockMatch::fuzzy);
    CHECK(fuzzy.blocks[0].line == 61);
    CHECK(fuzzy.blocks[0].similarity == doctest::Approx(1.0 - 1.0 / 25.0));

    // Too dissimilar for the threshold: the message says so.
    const Outcome strict = plan_and_apply(patch, file, 0.99);
    REQUIRE(strict.failures.size() == 1);
    CHECK(strict.failures[0].message.ends_with(
        " Similarity matching found no run of 1 line within 40 lines of line 58 that is at least 99% similar to it."));
    // Outside the window around the hint: not found.
    const Outcome far = plan_and_apply(sr("    total = compute(a, c)\n", "x\n", ":start_line:2\n"), file, 0.9);
    CHECK(far.failures.size() == 1);
}

TEST_CASE("similarity: the banded Levenshtein distance") {
    std::size_t cells = 0;
    CHECK(text::bounded_levenshtein("kitten", "sitting", 10, &cells) == 3);
    CHECK(text::bounded_levenshtein("kitten", "sitting", 2, &cells) == 3);  // limit + 1
    CHECK(text::bounded_levenshtein("", "abc", 3, &cells) == 3);
    CHECK(text::bounded_levenshtein("abc", "", 1, &cells) == 2);
    CHECK(text::bounded_levenshtein("same", "same", 0, &cells) == 0);
    CHECK(text::bounded_levenshtein("abcdef", "abXdef", 1, &cells) == 1);
    CHECK(cells > 0);
    CHECK(text::similarity_of(0, 0, 0) == 1.0);
    CHECK(text::similarity_of(1, 4, 5) == doctest::Approx(0.8));
}

// ---------------------------------------------------------------- similarity placement (issue 10)

namespace {

// Line j of the block the fuzzy tests move around; `variant` changes a few characters per line.
std::string config_line(std::size_t j, int variant = 0) {
    const std::string n = std::to_string(j);
    switch (variant) {
        case 2: return "    config.entry_" + n + " = parse_value(\"option-" + n + "\", default);";
        case 3: return "    config.entry_" + n + " = parse_value(\"option-" + n + "\", fallback);";
        case 4: return "    config.entry_" + n + " = parse_val(\"option_" + n + "\", default);";
        default: return "    config.entry_" + n + " = parse_value(\"option-" + n + "\", defaults);";
    }
}

std::string filler_line(std::size_t i) {
    return "    record_" + std::to_string(i) + ".value = lookup(table, " + std::to_string(i * 7 % 1000) + ") + offset;";
}

// The block as a model might copy it: one character changed on each line.
std::string one_change_per_line(std::size_t lines) {
    std::string s;
    for (std::size_t j = 0; j < lines; ++j) {
        std::string line = config_line(j);
        const std::size_t at = 6 + j % 20;
        line[at] = line[at] == 'x' ? 'y' : 'x';
        s += line + "\n";
    }
    return s;
}

std::string replaced_block(std::size_t lines) {
    std::string s;
    for (std::size_t j = 0; j < lines; ++j) s += "    config.entry_" + std::to_string(j) + " = 0;\n";
    return s;
}

}  // namespace

TEST_CASE("plan search/replace: fuzzy without a hint goes to the most similar place of the whole file") {
    // Lines 1-30 are a near copy of the block (about 0.86 similar to what the model sent); the block
    // itself is at 2501-2530 (about 0.98). The old search, middle-out from line 1 under its budget,
    // took lines 1-30.
    std::string file;
    for (std::size_t i = 1; i <= 3000; ++i) {
        if (i <= 30)
            file += config_line(i - 1, 3) + "\n";
        else if (i >= 2501 && i <= 2530)
            file += config_line(i - 2501) + "\n";
        else
            file += filler_line(i) + "\n";
    }
    const Outcome o = plan_and_apply(sr(one_change_per_line(30), replaced_block(30)), file, 0.8);
    REQUIRE(o.error == "");
    REQUIRE(o.blocks.size() == 1);
    CHECK(o.blocks[0].match == text::BlockMatch::fuzzy);
    CHECK(o.blocks[0].line == 2501);
    CHECK(o.blocks[0].similarity > 0.97);
    const std::size_t at = o.bytes.find(replaced_block(30));
    REQUIRE(at != std::string::npos);
    CHECK(o.bytes.substr(0, at).find(config_line(0, 3)) == 0);  // lines 1-30 untouched
    CHECK(std::count(o.bytes.begin(), o.bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n') == 2500);
}

TEST_CASE("plan search/replace: fuzzy in a 120,000-line file finds the block at its end") {
    // A decoy at 10,000-10,029 is above the threshold (about 0.91) but well behind the block at
    // 120,001-120,030 (about 0.98).
    std::string file;
    file.reserve(6'000'000);
    for (std::size_t i = 1; i <= 120'030; ++i) {
        if (i >= 10'000 && i < 10'030)
            file += config_line(i - 10'000, 4) + "\n";
        else if (i > 120'000)
            file += config_line(i - 120'001) + "\n";
        else
            file += filler_line(i) + "\n";
    }
    const auto started = std::chrono::steady_clock::now();
    const Outcome o = plan_and_apply(sr(one_change_per_line(30), replaced_block(30)), file, 0.9);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    MESSAGE("120,030-line file, 30-line block: planned in " << ms.count() << " ms");
    REQUIRE(o.error == "");
    REQUIRE(o.blocks.size() == 1);
    CHECK(o.blocks[0].match == text::BlockMatch::fuzzy);
    CHECK(o.blocks[0].line == 120'001);
    CHECK(o.bytes.ends_with(replaced_block(30)));
}

TEST_CASE("plan search/replace: fuzzy refuses when two places are about as similar, and says which") {
    // The block twice, once with a few more changes: neither is clearly ahead.
    std::string file;
    for (std::size_t i = 1; i <= 200; ++i) {
        if (i >= 20 && i < 30)
            file += config_line(i - 20) + "\n";
        else if (i >= 150 && i < 160)
            file += config_line(i - 150, 2) + "\n";
        else
            file += filler_line(i) + "\n";
    }
    const Outcome o = plan_and_apply(sr(one_change_per_line(10), replaced_block(10)), file, 0.8);
    REQUIRE(o.failures.size() == 1);
    CHECK(o.failures[0].kind == text::BlockFailureKind::ambiguous);
    CHECK(o.error.find("The SEARCH text was not found as it is, and by similarity 2 places in the file are about as "
                       "like it: lines 20-29 (0.98), and lines 150-159 (0.96). A similar place is used only when it "
                       "is at least 0.05 more similar than any other, so nothing was applied. Give :start_line: with "
                       "the line where the one meant starts (for example :start_line:20 right after <<<<<<< SEARCH)") !=
          std::string::npos);
    // With a hint, the same rule holds within the lines around it, and the nearer place is taken.
    const Outcome hinted =
        plan_and_apply(sr(one_change_per_line(10), replaced_block(10), ":start_line:150\n"), file, 0.8);
    REQUIRE(hinted.error == "");
    CHECK(hinted.blocks[0].line == 150);
}

TEST_CASE("plan search/replace: fuzzy refuses when its budget ends the search before it is sure") {
    std::string file;
    for (std::size_t i = 1; i <= 400; ++i) file += config_line(i % 7) + "\n";  // every place alike
    auto parsed = text::parse_patch(sr(one_change_per_line(5), replaced_block(5)));
    REQUIRE(parsed.ok());
    text::PlanOptions options;
    options.display_path = "f.txt";
    options.fuzzy_threshold = 0.8;
    options.fuzzy_budget = 200'000;
    auto plan = text::plan_file_patch(file, parsed->files[0], options);
    REQUIRE_FALSE(plan.ok());
    REQUIRE(plan.error().failures.size() == 1);
    const std::string& m = plan.error().message;
    CHECK(m.find("Similarity matching stopped before it was sure: its work limit ran out after it had compared ") !=
          std::string::npos);
    CHECK(m.find("Give :start_line: with the line where the one meant starts") != std::string::npos);
}

TEST_CASE(
    "plan search/replace property: a copied block with k random edits applies where it came from, or not at all") {
    // Files of lines drawn from a small vocabulary (so near copies abound), sometimes with the block
    // duplicated nearly exactly elsewhere; the block is copied from a random place, then edited.
    std::mt19937 random(20261123);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    const std::vector<std::string> words = {"alpha", "beta",  "gamma",  "delta", "value", "count",
                                            "index", "total", "return", "if",    "(x)",   "{",
                                            "}",     "=",     "+",      "next",  "size",  "item"};
    const std::string foreign = "#@%!~";  // characters the files never contain
    std::size_t applied = 0, refused = 0;
    for (int round = 0; round < 300; ++round) {
        const std::size_t line_count = 40 + pick(300);
        std::vector<std::string> lines;
        for (std::size_t i = 0; i < line_count; ++i) {
            std::string line(pick(3) * 4, ' ');
            const std::size_t n = 1 + pick(6);
            for (std::size_t w = 0; w < n; ++w) line += (w ? " " : "") + words[pick(words.size())];
            lines.push_back(line);
        }
        const std::size_t size = 1 + pick(12);
        const std::size_t from = pick(line_count - size + 1);  // 0-based
        if (pick(3) == 0) {                                    // a near duplicate elsewhere
            const std::size_t to = pick(line_count - size + 1);
            for (std::size_t j = 0; j < size; ++j) lines[to + j] = lines[from + j];
            if (pick(2) == 0) lines[to + pick(size)] += " item";
        }
        std::string file, block;
        for (const std::string& l : lines) file += l + "\n";
        std::vector<std::string> copied(lines.begin() + static_cast<std::ptrdiff_t>(from),
                                        lines.begin() + static_cast<std::ptrdiff_t>(from + size));
        const std::size_t edits = pick(3 * size + 2);
        for (std::size_t e = 0; e < edits; ++e) {
            std::string& l = copied[pick(size)];
            const std::size_t at = pick(l.size() + 1);
            switch (pick(3)) {
                case 0: l.insert(at, 1, foreign[pick(foreign.size())]); break;
                case 1:
                    if (at < l.size()) l[at] = foreign[pick(foreign.size())];
                    break;
                default:
                    if (at < l.size()) l.erase(at, 1);
                    break;
            }
        }
        for (const std::string& l : copied) block += l + "\n";
        if (block.find_first_not_of(" \n") == std::string::npos) continue;
        const double threshold = 0.6 + 0.1 * static_cast<double>(pick(4));
        const std::string hint = pick(3) == 0 ? ":start_line:" + std::to_string(from + 1) + "\n" : "";
        // Whatever the work budget: a search it cuts short must not pick the best place seen so far.
        const std::size_t budgets[] = {40'000'000, 1'000'000, 100'000};
        auto parsed = text::parse_patch(sr(block, "REPLACED\n", hint));
        REQUIRE(parsed.ok());
        text::PlanOptions options;
        options.display_path = "f.txt";
        options.fuzzy_threshold = threshold;
        options.fuzzy_budget = budgets[pick(3)];
        const auto plan = text::plan_file_patch(file, parsed->files[0], options);
        if (!plan.ok()) {
            ++refused;
            continue;
        }
        ++applied;
        REQUIRE(plan->blocks.size() == 1);
        INFO("round " << round << ", edits " << edits << ", threshold " << threshold << ", budget "
                      << options.fuzzy_budget << ", match " << plan->blocks[0].match);
        CHECK(plan->blocks[0].line == from + 1);
    }
    MESSAGE("property: " << applied << " applied where copied from, " << refused << " refused");
    CHECK(applied > 100);
    CHECK(refused > 20);
}

// ---------------------------------------------------------------- unified

TEST_CASE("plan unified: hunks found near their stated lines when the numbers are off") {
    const std::string file = numbered(40);
    const std::string patch =
        "--- a/f.txt\n+++ b/f.txt\n"
        "@@ -20,3 +20,3 @@\n line9\n-line10\n+LINE10\n line11\n"  // really at 9-11
        "@@ -30,2 +30,3 @@\n line35\n+new\n line36\n";            // really at 35-36
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    std::string expected = numbered(40);
    expected.replace(expected.find("line10\n"), 7, "LINE10\n");
    expected.insert(expected.find("line36\n"), "new\n");
    CHECK(o.bytes == expected);
    REQUIRE(o.blocks.size() == 2);
    CHECK(o.blocks[0].line == 9);
    CHECK(o.blocks[0].stated_line == 20);
    CHECK(o.blocks[1].line == 35);
}

TEST_CASE("plan unified: repeated context is told apart by the stated line") {
    const std::string file = "{\n  x;\n}\n{\n  x;\n}\n{\n  x;\n}\n";
    const std::string patch = "--- a/f\n+++ b/f\n@@ -5,1 +5,1 @@\n-  x;\n+  y;\n";
    CHECK(plan_and_apply(patch, file).bytes == "{\n  x;\n}\n{\n  y;\n}\n{\n  x;\n}\n");
    const std::string off = "--- a/f\n+++ b/f\n@@ -7,1 +7,1 @@\n-  x;\n+  y;\n";  // nearest to 7 is line 8
    CHECK(plan_and_apply(off, file).bytes == "{\n  x;\n}\n{\n  x;\n}\n{\n  y;\n}\n");
}

TEST_CASE("plan unified: in a large file, the nearest place to the stated line, ties reported") {
    // Over 1 MiB, so the lines near the stated line are searched first; results are the whole file's.
    auto make = [](std::initializer_list<std::size_t> dups) {
        std::string file;
        for (std::size_t i = 1; i <= 120000; ++i) {
            bool dup = false;
            for (const std::size_t d : dups) dup = dup || d == i;
            file += dup ? "dup\n" : "row " + std::to_string(i) + "\n";
        }
        return file;
    };
    auto hunk = [](std::size_t line) {
        return "--- a/f\n+++ b/f\n@@ -" + std::to_string(line) + ",1 +" + std::to_string(line) + ",1 @@\n-dup\n+DUP\n";
    };
    auto changed_line = [](const Outcome& o) { return o.blocks.empty() ? 0 : o.blocks[0].line; };
    const std::string three = make({1000, 30000, 50000});
    REQUIRE(three.size() > (1u << 20));
    CHECK(changed_line(plan_and_apply(hunk(29000), three)) == 30000);
    CHECK(changed_line(plan_and_apply(hunk(45000), three)) == 50000);  // 5000 lines away: the whole file decides
    CHECK(plan_and_apply(hunk(40000), three).failures.at(0).kind == text::BlockFailureKind::ambiguous);
    const std::string pair = make({27000, 31000, 31001});
    CHECK(changed_line(plan_and_apply(hunk(29000), pair)) == 0);  // 27000 and 31000 are both 2000 lines away
    CHECK(
        plan_and_apply(hunk(29000), pair).error.find("and lines 27000, 31000 are equally near the stated line 29000") !=
        std::string::npos);
    CHECK(changed_line(plan_and_apply(hunk(29001), pair)) == 31000);
    const Outcome applied = plan_and_apply(hunk(29001), pair);
    CHECK(applied.bytes.size() == pair.size());
    CHECK(applied.bytes.substr(applied.bytes.find("row 30999\n"), 20) == "row 30999\nDUP\ndup\nro");
}

TEST_CASE("plan unified: pure additions go after their stated line, in the file's newline style") {
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3,2 @@\n+x\n+y\n", "a\r\nb\r\nc\r\n").bytes ==
          "a\r\nb\r\nx\r\ny\r\nc\r\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+top\n", "a\nb\n").bytes == "top\na\nb\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+end\n", "a\nb\n").bytes == "a\nb\nend\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+end\n", "a\nb").bytes == "a\nb\nend");
    const Outcome far = plan_and_apply("--- a/f\n+++ b/f\n@@ -9,0 +10 @@\n+x\n", "a\nb\n");
    CHECK(far.error ==
          "Hunk 1 (line 3 of the diff) could not be applied to f: it adds lines after line 9, but f has 2 lines. "
          "Correct the line number in its header (0 puts the lines before line 1), or add context lines around "
          "the new ones.\nNothing was changed.");
}

TEST_CASE("plan unified: \\ No newline at end of file adds, removes or keeps the final newline") {
    // The old side has no final newline, the new one has.
    CHECK(
        plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", "a\nb").bytes ==
        "a\nb\n");
    // The new side loses it.
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n", "a\nb\n")
              .bytes == "a\nc");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n", "a\r\nb\r\n")
              .bytes == "a\r\nc");
    // Both sides without: stays without.
    CHECK(plan_and_apply(
              "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end "
              "of file\n",
              "a\nb")
              .bytes == "a\nc");
    // No marker, but the file has no final newline: kept as it is.
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "a\nb").bytes == "a\nc");
}

TEST_CASE("plan unified: create and delete") {
    const std::string patch =
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
        "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n";
    const Outcome created = plan_and_apply(patch, std::nullopt, 1.0, 0);
    REQUIRE(created.error == "");
    CHECK(created.action == text::FileAction::create);
    CHECK(created.bytes == "hello\nworld\n");
    REQUIRE(created.blocks.size() == 1);
    CHECK(created.blocks[0].match == text::BlockMatch::created);

    const Outcome exists = plan_and_apply(patch, std::string_view("other\n"), 1.0, 0);
    CHECK(exists.error ==
          "new.txt already exists (6 bytes), so it cannot be created. To change it, send a diff against its "
          "current content (--- a/new.txt, +++ b/new.txt); read it first to see its lines. Nothing was changed.");
    CHECK(plan_and_apply(patch, std::string_view("hello\r\nworld\r\n"), 1.0, 0).failures[0].kind ==
          text::BlockFailureKind::already_applied);
    CHECK(plan_and_apply(patch, std::string_view(""), 1.0, 0).bytes ==
          "hello\nworld\n");  // an empty file may be filled

    const Outcome deleted = plan_and_apply(patch, std::string_view("bye\r\nnow"), 1.0, 1);
    REQUIRE(deleted.error == "");
    CHECK(deleted.action == text::FileAction::remove);
    CHECK(deleted.bytes == "");
    CHECK(deleted.blocks[0].match == text::BlockMatch::deleted);
    CHECK(plan_and_apply(patch, std::string_view("bye\nlater\n"), 1.0, 1).error ==
          "the diff deletes old.txt, but the lines it shows as removed are not the file's content (at line 2 the "
          "file has \"later\" and the diff has \"now\"). Read the file and send the deletion again with its current "
          "lines. Nothing was changed.");
    CHECK(plan_and_apply(patch, std::nullopt, 1.0, 1).error ==
          "old.txt does not exist, so it cannot be deleted. Nothing was changed.");
    CHECK(plan_and_apply("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", std::nullopt).error ==
          "x does not exist, so its hunks cannot be applied. To create it, send it as a new file (--- /dev/null, "
          "+++ b/PATH). Nothing was changed.");
}

TEST_CASE("plan unified: a hunk whose context is not in the file quotes the closest region") {
    const Outcome o =
        plan_and_apply("--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n beta\n-gamma\n+GAMMA\n", "alpha\nbeta\ngama\n");
    REQUIRE(o.failures.size() == 1);
    CHECK(
        o.error.starts_with("Hunk 1 (line 3 of the diff) could not be applied to f: the hunk was not found in the "
                            "file, not even with trailing whitespace"));
    CHECK(o.error.find("The closest region is lines 2-3") != std::string::npos);
}

// ---------------------------------------------------------------- apply_patch

TEST_CASE("plan apply_patch: @@ anchors pick the occurrence after them; End of File the last one") {
    const std::string file =
        "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
        "class B:\n    def run(self):\n        x = 1\n        return x\n";
    const std::string patch =
        "*** Begin Patch\n*** Update File: app.py\n@@ class B:\n@@     def run(self):\n-        x = 1\n+        x = 2\n"
        "*** End Patch\n";
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    CHECK(o.bytes ==
          "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
          "class B:\n    def run(self):\n        x = 2\n        return x\n");
    CHECK(o.blocks[0].line == 8);

    const std::string eof =
        "*** Begin Patch\n*** Update File: app.py\n-        return x\n+        return -x\n*** End of File\n*** End "
        "Patch\n";
    CHECK(plan_and_apply(eof, file).bytes ==
          "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
          "class B:\n    def run(self):\n        x = 1\n        return -x\n");

    const std::string nothing =
        "*** Begin Patch\n*** Update File: app.py\n-        x = 1\n+        x = 2\n*** End Patch\n";
    const Outcome ambiguous = plan_and_apply(nothing, file);
    CHECK(ambiguous.error ==
          "Chunk 1 (line 3 of the patch) could not be applied to app.py: The chunk matches 2 places in app.py "
          "(starting at lines 3, 8). Put an @@ line before the chunk with a line of the file that comes before the "
          "place meant (such as the first line of its function), or include more context lines.\nNothing was "
          "changed.");
}

TEST_CASE("plan apply_patch: chunks in order, insertions after an anchor or at the end") {
    const std::string file = "def f():\n    pass\n\ndef g():\n    pass\n";
    const std::string patch =
        "*** Begin Patch\n*** Update File: m.py\n"
        "@@ def f():\n-    pass\n+    return 1\n"
        "@@\n-    pass\n+    return 2\n"      // the second "    pass": after the previous chunk
        "@@ def g():\n+    \"\"\"g.\"\"\"\n"  // only added lines: right after the anchor
        "@@\n+# end\n"                        // no anchor: at the end
        "*** End Patch\n";
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "def f():\n    return 1\n\ndef g():\n    \"\"\"g.\"\"\"\n    return 2\n# end\n");
    REQUIRE(o.blocks.size() == 4);
    CHECK(o.blocks[2].match == text::BlockMatch::inserted);
    CHECK(o.blocks[2].line == 5);
    CHECK(o.blocks[3].line == 6);
}

TEST_CASE("plan apply_patch and unified: a move carries its new name, with or without changes") {
    const Outcome moved =
        plan_and_apply("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-x\n+y\n*** End Patch\n",
                       std::string_view("x\n"));
    REQUIRE(moved.error == "");
    CHECK(moved.bytes == "y\n");
    CHECK(moved.move_to == std::optional<std::string>("b.txt"));
    const Outcome renamed = plan_and_apply(
        "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to "
        "b.txt\n",
        std::string_view("same\r\n"));
    REQUIRE(renamed.error == "");
    CHECK(renamed.bytes == "same\r\n");
    CHECK(renamed.move_to == std::optional<std::string>("b.txt"));
    CHECK(renamed.blocks.empty());
}

TEST_CASE("plan apply_patch: add and delete, with CRLF kept in updates") {
    const std::string patch =
        "*** Begin Patch\n*** Add File: n.txt\n+one\n+two\n*** Update File: w.txt\n@@\n a\n-b\n+B\n*** Delete File: d\n"
        "*** End Patch\n";
    CHECK(plan_and_apply(patch, std::nullopt, 1.0, 0).bytes == "one\ntwo\n");
    CHECK(plan_and_apply(patch, std::string_view("a\r\nb\r\n"), 1.0, 1).bytes == "a\r\nB\r\n");
    const Outcome d = plan_and_apply(patch, std::string_view("whatever"), 1.0, 2);
    CHECK(d.error == "");
    CHECK(d.action == text::FileAction::remove);
    const Outcome missing_anchor = plan_and_apply(
        "*** Begin Patch\n*** Update File: w\n@@ def nowhere():\n+x\n*** End Patch\n", std::string_view("a\n"));
    CHECK(missing_anchor.error ==
          "Chunk 1 (line 3 of the patch) could not be applied to w: its @@ line \"def nowhere():\" matches no line "
          "of w, so there is no place to add its lines. Copy the @@ line exactly from the file, or add context "
          "lines.\nNothing was changed.");
}
