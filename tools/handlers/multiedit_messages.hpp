// What multiedit tells the model (tools/handlers/multiedit.cpp): which edit failed and why no edit was
// applied, in either mode (each edit on the result of the one before, or every edit on the
// original file). multiedit decides; these word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "text/match/matcher.hpp"

namespace tools {

// ---- against "original" ----
std::string original_file_missing_message(std::string_view display);
std::string empty_old_string_against_original_message(std::size_t edit);
// edits[edit] matched, but not as many times as it expects (`why`: the count's own message).
std::string replacements_count_failed_message(std::size_t edit, std::string_view why);
// edits[edit] found no place, or several (`why`: the matcher's message).
std::string edit_not_matched_in_original_message(std::size_t edit, std::string_view why);
// edits[second] (on `second_lines`) overlaps edits[first] (on `first_lines`).
std::string edits_overlap_message(std::size_t second, const text::LineRange& second_lines, std::size_t first,
                                  const text::LineRange& first_lines);
std::string edits_splice_failed_message(std::string_view why);

// ---- each edit on the result of the one before ----
std::string only_first_edit_creates_message(std::size_t edit);
// edits[edit] failed (`why`: the edit's own message); after edits[0..edit-1] when edit > 0.
std::string edit_failed_message(std::size_t edit, std::string_view why);
// edits[edit] matches `places` places in the file as the earlier edits left it; in the file as it
// is, one (at `line_in_original`) or none (0).
std::string ambiguity_made_by_earlier_edits_message(std::size_t edit, std::size_t places, std::size_t line_in_original);

}  // namespace tools
