// What the transaction tells the model (tools/pipeline/transaction.cpp, tools/pipeline/staged_writes.cpp): a write
// refused or failed (not writable, a folder's lock held, the file changed or gone meanwhile, an
// I/O error), what was put back, and the notes on a change made. The transaction decides; these
// word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tools {

// ---- before writing (transaction.cpp) ----
// `holder`: who holds the lock ("" when it cannot be told); `seconds`: how long was waited ("5.0").
std::string folder_lock_timeout_message(std::string_view folder, std::string_view holder, std::string_view seconds);
// `removes_most`: "a.py removes 412 of 480 lines" (ShownDiff::removes_most).
std::string removes_most_note(std::string_view removes_most);
std::string replaced_meanwhile_message(std::string_view display);
// The file's encoding is not what it was when the change was planned (`was`, `now`: how each was decided).
std::string changed_encoding_meanwhile_message(std::string_view display, std::string_view was, std::string_view now);
std::string not_writable_message(std::string_view display, std::string_view why, bool deletes);
std::string awaiting_review_refusal(std::string_view decision_message);
// `others`: the file's other names (hard links).
std::string own_file_for_hard_links_note(std::string_view display, std::size_t others);

// ---- a failed commit of several files (transaction.cpp) ----
std::string files_restored_note();
// `revert_errors`: "\n- path: error" per file.
std::string restore_failed_note(std::string_view revert_errors);

// ---- staging and committing (staged_writes.cpp) ----
std::string cannot_create_folders_message(std::string_view display, std::string_view why);
// `nothing_written`: the write failed before any file was renamed (it says "Nothing was written.").
std::string cannot_write_message(std::string_view display, std::string_view why, bool nothing_written);
std::string cannot_remove_message(std::string_view display, std::string_view why);
std::string created_meanwhile_conflict(std::string_view display);
std::string deleted_meanwhile_conflict(std::string_view display);
// `diff`: what changed on disk, as a unified diff.
std::string changed_meanwhile_conflict(std::string_view display, std::string_view diff);
std::string conflict_message(std::string_view conflict);
std::string cancelled_before_writing_message();

}  // namespace tools
