// What the matcher's tiers hand to the decision (match_decision.cpp): the places a tier found, the
// needle it looked for, and the file and options the decision reads. Inside the matcher only.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/match/indentation_search.hpp"
#include "text/match/matcher.hpp"
#include "text/match/normalized_view.hpp"

namespace text {

// One place a tier found old_string at: in the LF view the tiers search, and in the file's bytes.
struct MatchPlace {
    std::size_t lf_begin = 0;  // in the LF view
    std::size_t lf_end = 0;
    std::size_t begin = 0;  // in the file
    std::size_t end = 0;
    std::optional<IndentShift> shift;  // indentation tier
    std::string invalid_bytes;         // the file's bytes that old_string's U+FFFDs stood for, in order
    LineRange lines;
};

// What one tier found: its places (listed up to the cap) and how many there are in all.
struct FoundPlaces {
    std::vector<MatchPlace> places;  // in file order; at most the listing cap unless replace_all
    std::size_t count = 0;
};

// One needle the tiers look for: old_string as sent, or without the line-number prefixes it was
// copied with; and the new text that goes with it.
struct MatchAttempt {
    std::string needle;                    // "\n" newlines
    std::string replacement;               // "\n" newlines
    std::optional<std::size_t> line_hint;  // the line the needle says it starts at (read prefixes)
};

// What the decision reads besides the places: the file's LF view, the edit and the options.
struct MatchContext {
    const LfView& lf;
    const EditSpec& spec;
    const MatchOptions& options;
};

// Extends each place to the end of its line when only blanks follow it there (`to_newline`:
// old_string's last line ended in blanks the view dropped, so up to the newline is all blanks).
void take_trailing_blanks(const LfView& lf, FoundPlaces& found, bool to_newline);

// The match a tier's places make (`folded`: found with Unicode folded, so the replacement takes the
// file's typography), or why none can be taken (several places and nothing to choose by; an
// indentation that cannot be told).
base::Result<Match, MatchError> decide_match(const MatchContext& c, MatchTier tier, FoundPlaces found,
                                             const MatchAttempt& a, bool folded = false);

// The error when no tier found `a.needle`: new_string already in the file, or the nearest miss.
base::Result<Match, MatchError> match_not_found(const MatchContext& c, const MatchAttempt& a);

}  // namespace text
