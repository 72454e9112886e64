// What the listing tools tell the model (tools/pipeline/listing.cpp, shared by list, find and grep; and
// grep.cpp's own refusals): a starting folder refused, a walk left incomplete by its caps, a
// pattern or glob that does not parse. The tools decide; these word them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tools {

// ---- the starting folder (listing.cpp); `tool`: list, find or grep ----
std::string listing_folder_missing_message(std::string_view tool, std::string_view display);
std::string listing_file_not_folder_message(std::string_view tool, std::string_view display);
// `kind`: what it is instead ("a FIFO", ...).
std::string listing_not_folder_message(std::string_view tool, std::string_view display, std::string_view kind);
std::string listing_ignored_message(std::string_view tool, std::string_view display);

// ---- a walk's caps (listing.cpp); `named`: the first few folders, as a listing shows them ----
std::string too_deep_line(std::uint64_t folders, std::size_t max_depth, std::string_view named, std::string_view tool);
std::string crowded_line(std::uint64_t folders, std::uint64_t max_entries, std::uint64_t unread, std::string_view named,
                         std::string_view tool);
std::string links_not_followed_line(std::uint64_t links, std::uint64_t max_followed, std::string_view tool);

// ---- list (list.cpp) ----
// `more`: "3 files and 2 folders"; `at_least`: not every folder was counted; `budget`: the JSON
// text bound when it was reached ("" when large folders were collapsed instead).
std::string list_not_shown_note(std::string_view more, bool at_least, std::size_t depth, std::string_view budget);
std::string list_unopened_note(std::size_t depth);
std::string list_hard_links_note(std::uint64_t files);

// ---- grep (grep.cpp) ----
std::string grep_pattern_message(std::string_view error);
// `glob`: the glob as shown, cut to a line's length (`cut`: it was longer).
std::string grep_glob_message(std::string_view glob, bool cut, std::string_view error);
// `links`: how many names the file has (more than one).
std::string grep_hard_links_message(std::string_view shown, std::uint64_t links);

// ---- grep's report (grep_report.cpp) ----
// `pattern`: as shown; `searched`: the files searched (binary and unreadable ones not counted).
std::string grep_no_matches_head(bool literal, std::string_view pattern, std::uint64_t searched,
                                 std::string_view where);
// `shown`: the matches shown when some are not (0 when all are).
std::string grep_matches_head(std::uint64_t matches, std::uint64_t files, std::string_view where,
                              std::uint64_t searched, std::uint64_t shown);
std::string grep_more_matches_line(std::uint64_t matches, std::uint64_t files);
// After a file's path in grep's text, for a file in another encoding (`encoding`, "" for UTF-8:
// nothing): it was searched, and is shown, as its text.
std::string grep_encoding_part(std::string_view encoding);
// The parts of "Not searched: ...".
std::string grep_over_size_part(std::uint64_t files);
std::string grep_unreadable_part(std::uint64_t files);
std::string grep_hard_links_part(std::uint64_t files);
// `named`: the first lines given up on, as path:line ("a.py:3, b.py:9"); `more`: how many more.
std::string grep_backtracking_line(std::uint64_t lines, std::string_view named, std::uint64_t more);

}  // namespace tools
