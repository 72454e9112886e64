// Finding old_string in a file for edit, multiedit and apply_diff: the exact tier, then the
// tolerant tiers, mapped back to the file's own bytes. The contract's "Matching" rules.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/match/line_number_prefixes.hpp"
#include "text/bytes/splice.hpp"

namespace text {

// The tier that decided a match, in the order they are tried.
enum class MatchTier {
    exact,                // on the file with its BOM removed and newlines read as "\n"
    trailing_whitespace,  // trailing whitespace of every line ignored
    unicode_normalized,   // typographic quotes, dashes, spaces and … read as ASCII (and the above)
    indentation,          // a uniform indentation shift (and the above); new_string re-indented
    line_numbers,         // `read` line-number prefixes removed from old_string (and new_string)
};
// "exact", "trailing_whitespace", "unicode_normalized", "indentation", "line_numbers"
const char* to_string(MatchTier tier);

// 1-based, inclusive.
struct LineRange {
    std::size_t first = 0;
    std::size_t last = 0;
    bool operator==(const LineRange&) const = default;
};
// "12" or "12-14"
std::string to_string(const LineRange& range);

struct EditSpec {
    std::string_view old_string;
    std::string_view new_string;
    bool replace_all = false;
};

struct MatchOptions {
    // Names used in messages (apply_diff may call them "the SEARCH block" / "the REPLACE block").
    std::string_view old_name = "old_string";
    std::string_view new_name = "new_string";
    // SEARCH/REPLACE `:start_line:`: when several places match, the one nearest to this line is
    // taken, provided no other place is as near.
    std::optional<std::size_t> start_line_hint;
    // More places than this are counted but not listed individually (not used with replace_all).
    std::size_t max_listed_places = 10000;
};

struct Match {
    MatchTier tier = MatchTier::exact;
    // Sorted, non-overlapping byte ranges of the file (BOM and CRLF included) and their new text,
    // written with "\n" newlines: splice() gives them the file's newline style.
    std::vector<Replacement> replacements;
    std::vector<LineRange> lines;  // the lines each replacement covers, before the change
};

enum class MatchErrorKind {
    empty_old_string,
    identical,  // old_string == new_string
    not_found,
    already_applied,  // not found, but new_string is present
    ambiguous,        // several places and no replace_all
    // found once, tolerantly, but one indentation of old_string stands for two of the file's and a
    // changed line of new_string uses it: which one it means cannot be told
    unclear_indentation,
};
// "empty_old_string", "identical", "not_found", "already_applied", "ambiguous", "unclear_indentation"
const char* to_string(MatchErrorKind kind);

struct MatchError {
    MatchErrorKind kind = MatchErrorKind::not_found;
    std::string message;              // written for the model: what, where, why, what next
    std::vector<LineRange> places;    // ambiguous: the places (at most max_listed_places)
    std::size_t place_count = 0;      // ambiguous: how many places in all
    std::optional<MatchTier> tier;    // ambiguous: the tier that found them
    std::optional<LineRange> region;  // not_found: the closest region; already_applied,
                                      // unclear_indentation: where
};

// Finds where `spec` applies in `file_bytes` (the raw file, BOM and all).
base::Result<Match, MatchError> match_edit(std::string_view file_bytes, const EditSpec& spec,
                                           const MatchOptions& options = {});

}  // namespace text
