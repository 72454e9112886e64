// undo's messages (undo_messages.hpp). Each keeps the exact wording the tests and the models rely on.
#include "tools/handlers/undo_messages.hpp"

namespace tools {

std::string remaining_undo_note(std::size_t left) {
    return left == 0 ? "no earlier change of this file by this server is left to undo"
                     : std::to_string(left) + " earlier change" + (left == 1 ? "" : "s") +
                           " of this file by this server can still be undone";
}

std::string history_evicted_message(std::string_view display, std::size_t evicted) {
    return "Nothing more to undo for " + std::string(display) + ": " + std::to_string(evicted) +
           " earlier change(s) by this server were dropped from the undo history to stay "
           "within its byte budget (--history-budget), so they are no longer undoable. Use "
           "edit or write to restore the content instead.";
}

std::string nothing_to_undo_message(std::string_view display) {
    return "Nothing to undo for " + std::string(display) +
           ": this server has not changed it in this session (or every change was undone).";
}

std::string deleted_file_back_message(std::string_view display, std::string_view tool) {
    return "Cannot undo: " + std::string(display) + " was deleted by " + std::string(tool) +
           ", but a file exists there again; nothing was changed. Move it away first.";
}

std::string written_file_gone_message(std::string_view display, std::string_view tool) {
    return "Cannot undo: " + std::string(display) + " no longer exists, so it is not what this server wrote (by " +
           std::string(tool) + "). Nothing was changed.";
}

std::string changed_since_written_message(std::string_view display, std::string_view tool) {
    return "Cannot undo: " + std::string(display) + " changed since this server wrote it (by " + std::string(tool) +
           "), so reverting would lose those changes. Nothing was changed.";
}

std::string written_bytes_not_kept_note(std::size_t kept_mib) {
    return " (The file is over " + std::to_string(kept_mib) +
           " MiB, so what the server wrote is not kept to show how it differs; read it to see "
           "its content now.)";
}

std::string drift_note(std::string_view diff) {
    return " How the file differs from what the server wrote:\n" + std::string(diff);
}

}  // namespace tools
