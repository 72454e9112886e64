// What the one-file change tools tell the model (tools/pipeline/change.cpp, edit.cpp, write.cpp,
// insert.cpp): a change refused because the file was not seen or changed since, a file missing or
// present when it should not be, an edit's count of places, the summary of a change made. The
// tools decide; these word it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tools {

// ---- the file as the session saw it (change.cpp) ----
// "It has 12 lines now (sha256 ...)."
std::string file_now_facts(std::size_t lines, std::string_view sha256);
// `why`: why the call needs the file seen; `next`: what to call after reading it.
std::string not_read_message(std::string_view display, std::string_view why, std::string_view facts,
                             std::string_view next);
std::string changed_since_read_message(std::string_view display, std::string_view why, std::string_view facts,
                                       std::string_view next);
std::string change_target_missing_message(std::string_view path, std::string_view real);
std::string result_too_large_message(std::size_t size, std::uint64_t limit);

// ---- the summary (change.cpp) ----
std::string no_change_summary(std::string_view display);
// Why the places found gave back the same bytes: multiedit's edits cancel out, or the new text is
// already there (`match`: the tier's name, "" when none).
std::string edits_cancel_out_note();
std::string already_there_note(std::size_t replacements, std::string_view match);

// ---- edit (edit.cpp) ----
// `places`: the lines of the places found ("3, 9-10, ...").
std::string expected_replacements_message(std::int64_t found, std::string_view display, std::string_view places,
                                          std::int64_t expected);
std::string creation_counts_one_message(std::int64_t expected);
std::string empty_old_string_on_content_message(std::string_view display);
std::string edit_target_missing_message(std::string_view display);

// ---- write (write.cpp) ----
std::string create_only_exists_message(std::string_view display);
std::string write_unread_message(std::string_view display);
std::string write_stale_message(std::string_view display);

// ---- insert (insert.cpp) ----
std::string insert_by_number_reason(std::int64_t line);
std::string insert_again_next();

}  // namespace tools
