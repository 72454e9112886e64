// The words that matching failures share, wherever they are written (the matcher for edit and
// multiedit, the planner for apply_diff): the condition a tolerant tier adds, the place nearest to a
// stated line, lists of places cut after a few, and the matcher's own failure messages.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/match/matcher.hpp"

namespace text {

// How far apart two line numbers are.
inline std::size_t line_distance(std::size_t a, std::size_t b) { return a > b ? a - b : b - a; }

// Of `count` places (line_of(i): where place i starts), those nearest to `hint`, in order. A
// place is chosen by the hint only when this has exactly one.
template <class LineOf>
std::vector<std::size_t> nearest_to_hint(std::size_t count, std::size_t hint, LineOf&& line_of) {
    std::vector<std::size_t> nearest;
    if (count == 0) return nearest;
    std::size_t best = line_distance(line_of(0), hint);
    for (std::size_t i = 1; i < count; ++i) best = std::min(best, line_distance(line_of(i), hint));
    for (std::size_t i = 0; i < count; ++i) {
        if (line_distance(line_of(i), hint) == best) nearest.push_back(i);
    }
    return nearest;
}

// "a, b, c" of the first `max_shown` of `available` items (item(i) writes one), then ", and N more"
// when `total` is larger than what was shown. `and_before_last`: "a, b, and c" when all are shown.
template <class Item>
std::string list_items(std::size_t available, std::size_t max_shown, std::size_t total, Item&& item,
                       bool and_before_last = false) {
    std::string s;
    const std::size_t shown = std::min(available, max_shown);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i) s += and_before_last && i + 1 == shown && shown == total ? ", and " : ", ";
        s += item(i);
    }
    if (total > shown) s += ", and " + std::to_string(total - shown) + " more";
    return s;
}

// Lines by number: "line 12", "lines 12-14", or "before line 12" for an insertion (last < first).
std::string lines_words(std::size_t first, std::size_t last);

// What a tolerant tier ignored, as a clause after "matches N places": " when trailing whitespace
// is ignored", ...; empty for the exact tier. `prefixes_from_read`: the line-number prefixes are
// named as `read`'s.
std::string tier_condition(MatchTier tier, bool prefixes_from_read);

// The matcher's failures, `options` naming old_string and new_string.
std::string empty_old_string_message(const MatchOptions& options);
std::string identical_message(const MatchOptions& options);
// Several places and no replace_all: `places` (the listed ones) of `count`, found by `tier`.
std::string ambiguous_match_message(const MatchOptions& options, MatchTier tier, const std::vector<LineRange>& places,
                                    std::size_t count);
// Not found, but new_string is present once, at `where`.
std::string already_applied_message(const MatchOptions& options, const LineRange& where);
// Found once at `where` with an indentation shift, but old_string's indentation `caller` stands
// for both `file_a` and `file_b` in the file, and line `new_line` of new_string is indented so.
std::string unclear_indentation_message(const MatchOptions& options, const LineRange& where, std::string_view caller,
                                        std::string_view file_a, std::string_view file_b, std::size_t new_line);

}  // namespace text
