// The planner's messages. Each keeps the exact wording the tests and the models rely on.
#include "text/plan/plan_messages.hpp"

#include <algorithm>
#include <cstdio>

#include "text/match/match_messages.hpp"
#include "text/match/near_miss.hpp"
#include "text/patch/patch_text.hpp"

namespace text {

namespace {

constexpr std::size_t kListedFailures = 10;
constexpr std::size_t kListedPlaces = 20;

std::string score(double similarity) {
    char s[16];
    std::snprintf(s, sizeof s, "%.2f", similarity);
    return s;
}

std::string percent(double threshold) {
    char s[16];
    std::snprintf(s, sizeof s, "%.0f%%", threshold * 100.0);
    return s;
}

std::string window_words(const SimilarWindow& w, std::size_t k) {
    return lines_words(w.first_line, w.first_line + k - 1);
}

std::string line_list(const std::vector<std::size_t>& lines, std::size_t total) {
    return list_items(lines.size(), kListedPlaces, total, [&](std::size_t i) { return std::to_string(lines[i]); });
}

std::string searched_words(const SimilarityRanking& found, std::string_view scope) {
    return "Similarity matching stopped before it was sure: its work limit ran out after it had compared " +
           std::to_string(found.windows) + " of the " + std::to_string(found.candidates) + " places " +
           std::string(scope) +
           " that a quick count of shared characters could not rule out, and a place "
           "not compared could still be up to " +
           score(found.unscored_bound) + " similar";
}

}  // namespace

PlanWords plan_words(PatchFormat format) {
    switch (format) {
        case PatchFormat::search_replace: return {"block", "Block", "SEARCH", "REPLACE", "The SEARCH text", "diff"};
        case PatchFormat::unified: return {"hunk", "Hunk", "the hunk", "the hunk's new lines", "The hunk", "diff"};
        case PatchFormat::apply_patch:
            return {"chunk", "Chunk", "the chunk", "the chunk's new lines", "The chunk", "patch"};
    }
    return {"block", "Block", "SEARCH", "REPLACE", "The SEARCH text", "diff"};
}

std::string missing_file_message(const PlanSubject& s) {
    std::string how;
    switch (s.format) {
        case PatchFormat::search_replace: how = "use write to create it"; break;
        case PatchFormat::unified: how = "send it as a new file (--- /dev/null, +++ b/PATH)"; break;
        case PatchFormat::apply_patch: how = "send it as \"*** Add File: PATH\""; break;
    }
    return s.name + " does not exist, so its " + std::string(s.words.block) + "s cannot be applied. To create it, " +
           how + ".";
}

std::string identical_block_message() {
    return "it changes nothing: its old and new lines are the same. Put the changed lines in it, or leave it out.";
}

std::string anchor_note(std::string_view anchor) {
    return " (Its @@ line " + quote_patch_line(anchor) + " matches no line of the file either.)";
}

std::string misaligned_message(const PlanSubject& s, std::size_t line) {
    return std::string(s.words.old_text) + " starts with an empty line, but in " + s.name +
           " the lines that follow it (from line " + std::to_string(line + 1) + ") come right after line " +
           std::to_string(line) +
           ", which is not empty. Remove the empty first line (from the new lines too, if they start with one), "
           "or copy the lines exactly from the file.";
}

std::string insertion_past_end_message(const PlanSubject& s, std::size_t after, std::size_t line_count) {
    return "it adds lines after line " + std::to_string(after) + ", but " + s.name + " has " +
           std::to_string(line_count) + (line_count == 1 ? " line" : " lines") +
           ". Correct the line number in its header (0 puts the lines before line 1), or add context lines "
           "around the new ones.";
}

std::string anchor_missing_message(const PlanSubject& s, std::string_view anchor) {
    return "its @@ line " + quote_patch_line(anchor) + " matches no line of " + s.name +
           ", so there is no place to add its lines. Copy the @@ line exactly from the file, or add context lines.";
}

std::string next_for_ambiguity(PatchFormat format, std::size_t example_line) {
    switch (format) {
        case PatchFormat::search_replace:
            return "Give :start_line: with the line where the one meant starts (for example :start_line:" +
                   std::to_string(example_line) +
                   " right after <<<<<<< SEARCH), or include more of the surrounding lines in SEARCH so "
                   "that it matches only that place.";
        case PatchFormat::unified:
            return "Correct the line numbers in the hunk header (@@ -" + std::to_string(example_line) +
                   ",...), or include more context lines so that it matches only that place.";
        case PatchFormat::apply_patch:
            return "Put an @@ line before the chunk with a line of the file that comes before the place "
                   "meant (such as the first line of its function), or include more context lines.";
    }
    return "";
}

std::string ambiguous_block_message(const PlanSubject& s, const MatchError& err, const PatchBlock& b,
                                    std::optional<std::size_t> hint) {
    std::vector<std::size_t> starts;
    for (const LineRange& p : err.places) starts.push_back(p.first);
    std::string m =
        std::string(s.words.old_text) + " matches " + std::to_string(err.place_count) + " places in " + s.name;
    if (err.tier) m += tier_condition(*err.tier, false);
    m += " (starting at lines " + line_list(starts, err.place_count) + ")";
    if (hint && !starts.empty()) {
        std::vector<std::size_t> tied;
        for (const std::size_t i : nearest_to_hint(starts.size(), *hint, [&](std::size_t i) { return starts[i]; })) {
            tied.push_back(starts[i]);
        }
        m += ", and lines " + line_list(tied, tied.size()) + " are equally near the stated line " +
             std::to_string(*hint);
    }
    m += ". " + next_for_ambiguity(s.format, starts.empty() ? b.start_line.value_or(1) : starts.front());
    return m;
}

std::string similarity_scope(std::optional<std::size_t> hint, std::size_t window) {
    return hint ? "within " + std::to_string(window) + " lines of line " + std::to_string(*hint)
                : std::string("in the file");
}

std::string similarity_budget_note() {
    return " Similarity matching was not tried: the other blocks used up its budget; give the line where the text "
           "starts.";
}

std::string similarity_stopped_note(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                    double threshold) {
    return " " + searched_words(found, scope) + " (at least " + percent(threshold) +
           " is needed), so nothing was applied. Give the line where the text starts" +
           (s.format == PatchFormat::search_replace ? std::string(" (:start_line:)") : std::string()) +
           ", so that only the lines near it are compared.";
}

std::string similarity_stopped_message(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                       std::size_t k) {
    return std::string(s.words.old_text) + " was not found as it is. " + searched_words(found, scope) +
           "; the most similar so far is " + window_words(*found.best, k) + " (" + score(found.best->similarity) +
           "), so nothing was applied at a place that might not be the best. " +
           next_for_ambiguity(s.format, found.best->first_line);
}

std::string not_similar_note(const SimilarityRanking& found, std::string_view scope, std::size_t k, double threshold) {
    return " Similarity matching found no run of " + std::to_string(k) + (k == 1 ? " line" : " lines") + " " +
           std::string(scope) + " that is at least " + percent(threshold) + " similar to it" +
           (found.best
                ? " (the most similar, " + window_words(*found.best, k) + ", is " + score(found.best->similarity) + ")"
                : std::string()) +
           ".";
}

std::string similar_but_unaligned_message(const PlanSubject& s, std::size_t first, std::size_t last, double similarity,
                                          std::string_view why, std::string_view left_out) {
    return std::string(s.words.old_text) + " was not found as it is; by similarity it is most like " +
           lines_words(first, last) + " (" + score(similarity) + "), but there " + std::string(why) +
           ", so applying it would delete or misplace lines it does not mention. Nothing was applied. Read " +
           lines_words(first, last) + " and send the " + std::string(s.words.block) +
           " again with every line as the file has it" +
           (left_out.empty() ? std::string() : ", " + std::string(left_out) + " in it") + ".";
}

std::string similar_places_message(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                   std::size_t k, double margin) {
    const std::vector<SimilarWindow>& places = found.contenders;
    const std::string list = list_items(
        places.size(), kListedPlaces, places.size(),
        [&](std::size_t i) { return window_words(places[i], k) + " (" + score(places[i].similarity) + ")"; }, true);
    return std::string(s.words.old_text) + " was not found as it is, and by similarity " +
           std::to_string(places.size()) + " places " + std::string(scope) + " are about as like it: " + list +
           ". A similar place is used only when it is at least " + score(margin) +
           " more similar than any other, so nothing was applied. " +
           next_for_ambiguity(s.format, places.front().first_line);
}

std::string overlap_message(const PlanSubject& s, const PlacedLines& first, const PlacedLines& second) {
    const std::string block(s.words.block);
    return "it overlaps " + block + " " + std::to_string(first.index) + " (line " + std::to_string(first.patch_line) +
           " of the " + s.words.patch + "): " + block + " " + std::to_string(first.index) + " changes " +
           lines_words(first.first_line, first.last_line) + " and " + block + " " + std::to_string(second.index) +
           " changes " + lines_words(second.first_line, second.last_line) + " of " + s.name + ". Every " + block +
           " is matched against the file as it is now, so two of them must not change the same lines: merge them "
           "into one " +
           block + ".";
}

std::string splice_failed_message(std::string_view why) {
    return "the changes could not be put together: " + std::string(why) + ".";
}

std::string already_created_message(const PlanSubject& s) {
    return s.name +
           " already exists with exactly this content: the patch looks already applied, so nothing was "
           "changed.";
}

std::string already_exists_message(const PlanSubject& s, std::size_t size) {
    const std::string how = s.format == PatchFormat::apply_patch
                                ? "\"*** Update File: " + s.name + "\" with the lines to change"
                                : "a diff against its current content (--- a/" + s.name + ", +++ b/" + s.name + ")";
    return s.name + " already exists (" + std::to_string(size) +
           " bytes), so it cannot be created. To change it, "
           "send " +
           how + "; read it first to see its lines.";
}

std::string missing_for_delete_message(const PlanSubject& s) {
    return s.name + " does not exist, so it cannot be deleted.";
}

std::string deleted_lines_differ_message(const PlanSubject& s, const std::string& expected, const std::string& actual) {
    std::size_t line = 1, at = 0;
    while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) {
        if (expected[at] == '\n') ++line;
        ++at;
    }
    auto line_at = [](const std::string& text, std::size_t pos) {
        const std::size_t b = text.rfind('\n', pos == 0 ? 0 : pos - 1);
        const std::size_t begin = (b == std::string::npos || pos == 0) ? 0 : b + 1;
        const std::size_t e = text.find('\n', begin);
        return std::string_view(text).substr(begin, (e == std::string::npos ? text.size() : e) - begin);
    };
    std::string detail;
    if (at >= actual.size()) {
        detail = "the file ends before line " + std::to_string(line);
    } else if (at >= expected.size()) {
        detail =
            "the file goes on after line " + std::to_string(line - 1) + " of what the " + s.words.patch + " removes";
    } else {
        detail = "at line " + std::to_string(line) + " the file has " +
                 quote_patch_line(visible_whitespace(line_at(actual, at))) + " and the " + s.words.patch + " has " +
                 quote_patch_line(visible_whitespace(line_at(expected, at)));
    }
    return "the " + std::string(s.words.patch) + " deletes " + s.name +
           ", but the lines it shows as removed are not "
           "the file's content (" +
           detail + "). Read the file and send the deletion again with its current lines.";
}

std::string plan_failure_message(const PlanSubject& s, const std::vector<BlockFailure>& failures,
                                 std::size_t block_count) {
    auto label = [&](const BlockFailure& f) {
        return std::string(s.words.Block) + " " + std::to_string(f.index) + " (line " + std::to_string(f.patch_line) +
               " of the " + s.words.patch + ")";
    };
    std::string m;
    if (failures.size() == 1) {
        m = label(failures.front()) + " could not be applied to " + s.name + ": " + failures.front().message;
    } else {
        m = std::to_string(failures.size()) + " of the " + std::to_string(block_count) + " " + s.words.block +
            "s for " + s.name + " could not be applied.";
        for (std::size_t i = 0; i < failures.size() && i < kListedFailures; ++i) {
            m += "\n\n" + label(failures[i]) + ": " + failures[i].message;
        }
        if (failures.size() > kListedFailures) {
            m += "\n\n... and " + std::to_string(failures.size() - kListedFailures) + " more.";
        }
    }
    m += "\nNothing was changed";
    if (block_count > 1) {
        m += ": no " + std::string(s.words.block) + " was applied, so send the whole " + s.words.patch +
             " again with the failing " + s.words.block + (failures.size() > 1 ? "s" : "") + " fixed";
    }
    m += ".";
    return m;
}

std::string whole_failure_message(std::string_view reason) { return std::string(reason) + " Nothing was changed."; }

}  // namespace text
