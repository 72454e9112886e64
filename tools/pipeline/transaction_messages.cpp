// The transaction's messages (transaction_messages.hpp). Each keeps the exact wording the tests and
// the models rely on.
#include "tools/pipeline/transaction_messages.hpp"

namespace tools {

std::string folder_lock_timeout_message(std::string_view folder, std::string_view holder, std::string_view seconds) {
    std::string message = "Nothing was written: the lock of the folder " + std::string(folder) +
                          " (which mcp-edit servers take " + "for the milliseconds of a write there) was held ";
    message += holder.empty() ? "by another process (which one cannot be told from here)" : "by " + std::string(holder);
    message += " for over " + std::string(seconds) +
               " s. If a second mcp-edit or another program is stuck there, resume or end it; " + "then call again.";
    return message;
}

std::string removes_most_note(std::string_view removes_most) {
    return "Note: " + std::string(removes_most) + ", most of the file; check that nothing was left out";
}

std::string replaced_meanwhile_message(std::string_view display) {
    return "Nothing was written: " + std::string(display) +
           " was removed or replaced by another program while this change was being "
           "prepared. Read it again and redo the change.";
}

std::string changed_encoding_meanwhile_message(std::string_view display, std::string_view was, std::string_view now) {
    return "Nothing was written: " + std::string(display) +
           " was changed by another program while this change was "
           "being prepared, and its encoding with it (it was " +
           std::string(was) + ", it is now " + std::string(now) + "). Read it again and redo the change.";
}

std::string not_writable_message(std::string_view display, std::string_view why, bool deletes) {
    return "Refused: " + std::string(display) + " is not writable: " + std::string(why) + ", so " +
           (deletes ? "it is not removed" : "it is not changed") +
           ". Nothing was written. Ask the user to make it writable (chmod u+w) if "
           "it should change, then call again.";
}

std::string awaiting_review_refusal(std::string_view decision_message) {
    return "Not written: " + std::string(decision_message);
}

std::string own_file_for_hard_links_note(std::string_view display, std::size_t others) {
    return std::string(display) + " had " + std::to_string(others) + " other name" + (others == 1 ? "" : "s") +
           " (hard links), which may lie outside the roots or be ignored: it " +
           "was given a file of its own, and the other names keep the old content (the server's "
           "--write-through-hard-links flag writes through every name instead).";
}

std::string files_restored_note() { return "\nNo file was changed (the files already written were restored)."; }

std::string restore_failed_note(std::string_view revert_errors) {
    return "\nRestoring the files already written failed for:" + std::string(revert_errors) +
           "\nCheck them: they hold the changed content.";
}

std::string cannot_create_folders_message(std::string_view display, std::string_view why) {
    return "Cannot create the folders for " + std::string(display) + ": " + std::string(why) + ". Nothing was written.";
}

std::string cannot_write_message(std::string_view display, std::string_view why, bool nothing_written) {
    return "Cannot write " + std::string(display) + ": " + std::string(why) +
           (nothing_written ? ". Nothing was written." : ".");
}

std::string cannot_remove_message(std::string_view display, std::string_view why) {
    return "Cannot remove " + std::string(display) + ": " + std::string(why) + ".";
}

std::string created_meanwhile_conflict(std::string_view display) {
    return std::string(display) + " was created by another program while this change was being prepared.";
}

std::string deleted_meanwhile_conflict(std::string_view display) {
    return std::string(display) + " was deleted by another program while this change was being prepared.";
}

std::string changed_meanwhile_conflict(std::string_view display, std::string_view diff) {
    return std::string(display) +
           " changed on disk while this change was being prepared (another program wrote it). "
           "What changed there:\n" +
           std::string(diff);
}

std::string conflict_message(std::string_view conflict) {
    return "Nothing was written: " + std::string(conflict) +
           "\nRead the file again and redo the change on its current content.";
}

std::string cancelled_before_writing_message() { return "Cancelled by the client; nothing was written."; }

}  // namespace tools
