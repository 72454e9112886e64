// Unit tests of similarity matching in text::plan_file_patch (fuzzy_threshold below 1): the banded
// Levenshtein distance, where a block that no tier found is placed, and when it is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "text/patch/patch_detect.hpp"
#include "text/plan/patch_plan.hpp"
#include "text/plan/patch_similarity.hpp"

#include "plan_outcome.hpp"

using test_text::numbered;
using test_text::Outcome;
using test_text::plan_and_apply;
using test_text::sr;

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
