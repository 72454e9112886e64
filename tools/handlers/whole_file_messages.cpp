// The whole-file tools' messages (whole_file_messages.hpp). Each keeps the exact wording the tests
// and the models rely on.
#include "tools/handlers/whole_file_messages.hpp"

namespace tools {

namespace {

std::string text_of(std::string_view text) { return std::string(text); }

// "Cannot undo the move of a to b: "
std::string cannot_undo_move(std::string_view from, std::string_view to) {
    return "Cannot undo the move of " + text_of(from) + " to " + text_of(to) + ": ";
}

}  // namespace

std::string symlink_refused_message(std::string_view path, std::string_view target, std::string_view tool,
                                    std::string_view role) {
    return "Refused: " + text_of(path) + " is a symbolic link (to " + text_of(target) + "). " + text_of(tool) +
           " works on regular files, never through a link, so that the link and its target do not "
           "part ways unseen. Call " +
           text_of(tool) + " with " + text_of(role) + " set to " + text_of(target) + " itself.";
}

std::string nothing_to_message(std::string_view tool, std::string_view path, std::string_view real) {
    return "Nothing to " + text_of(tool) + ": " + text_of(path) + " does not exist (resolved to " + text_of(real) +
           "). Check the path: list its folder to see what is there.";
}

std::string folder_not_moved_message(std::string_view path) {
    return "Refused: " + text_of(path) +
           " is a folder. move moves one file at a time (a folder may hold files this "
           "server must not touch: ignored ones, a .git folder). Move its files one by one; each move "
           "makes the folders its new path needs.";
}

std::string not_regular_for_tool_message(std::string_view path, std::string_view kind, std::string_view tool) {
    return "Refused: " + text_of(path) + " is " + text_of(kind) + ", not a regular file; " + text_of(tool) +
           " works on regular files only.";
}

std::string call_again_next(std::string_view tool) { return "call " + text_of(tool) + " again"; }

std::string mode_kept_note(std::string_view octal_mode) {
    return "its bytes and mode (" + text_of(octal_mode) + ") are kept";
}

std::string same_file_move_message(std::string_view display) {
    return "Nothing to move: from and to name the same file (" + text_of(display) + "). Give `to` the new path.";
}

std::string link_destination_message(std::string_view to) {
    return "Refused: " + text_of(to) +
           " is a symbolic link; move does not replace a link. Pick "
           "another `to`, or delete the link yourself first.";
}

std::string destination_not_regular_message(std::string_view display, std::string_view kind) {
    return "Refused: " + text_of(display) + " exists and is " + text_of(kind) +
           "; move puts files only where no file is, or over a regular file. Pick "
           "another `to`.";
}

std::string destination_exists_message(std::string_view display, std::uint64_t size) {
    return "Refused: " + text_of(display) + " already exists (" + std::to_string(size) +
           " bytes), and move does not replace a file unless asked. Nothing was moved. "
           "Pick another `to`, or, to replace it (its content is lost), read " +
           text_of(display) + " and call move again with overwrite: true.";
}

std::string overwrite_loses_content_reason() { return "move with overwrite: true replaces its whole content"; }

std::string move_summary(bool dry_run, std::string_view from, std::string_view to, bool overwrite,
                         std::size_t additions, std::size_t removals) {
    return (dry_run ? "Dry run (nothing written): would move " : "Moved ") + text_of(from) + " to " + text_of(to) +
           (overwrite ? " (replacing the file that was there, +" + std::to_string(additions) + " -" +
                            std::to_string(removals) + ")."
                      : " (a rename: no line changed).");
}

std::string opaque_file_facts(bool binary, std::size_t size, std::string_view sha256) {
    return std::string(binary ? "a binary file" : "a UTF-16/32 file") + " of " + std::to_string(size) +
           " bytes, sha256 " + text_of(sha256);
}

std::string root_not_deleted_message(std::string_view display) {
    return "Refused: " + text_of(display) + " is a root of this server; it is never deleted.";
}

std::string cannot_look_into_message(std::string_view display, std::string_view why) {
    return "Cannot look into " + text_of(display) + ": " + text_of(why) + ".";
}

std::string folder_not_empty_message(std::string_view display) {
    return "Refused: " + text_of(display) +
           " is a folder that is not empty. delete removes files "
           "and empty folders only (a folder may hold files this server must not touch). "
           "Delete its files one by one (read each first), then the folder.";
}

std::string empty_folder_summary(bool dry_run, std::string_view display) {
    return (dry_run ? "Dry run (nothing written): would delete the empty folder " : "Deleted the empty folder ") +
           text_of(display) + ".";
}

std::string empty_folder_shown_diff(std::string_view display) {
    return "Delete the empty folder " + text_of(display) + "/";
}

std::string cannot_delete_folder_message(std::string_view display, std::string_view why) {
    return "Cannot delete the folder " + text_of(display) + ": " + text_of(why) + ". Nothing was deleted.";
}

std::string folder_not_recreated_note() {
    return "undo does not recreate a folder; a file written into its path makes it again";
}

std::string deletion_loses_content_reason() { return "delete removes the whole file"; }

std::string deletion_summary(bool dry_run, std::string_view display, std::size_t removals, std::string_view opaque) {
    return (dry_run ? "Dry run (nothing written): would delete " : "Deleted ") + text_of(display) +
           (opaque.empty() ? " (-" + std::to_string(removals) + ")." : " (" + text_of(opaque) + ").");
}

std::string undo_recreates_note(std::string_view display) {
    return "undo with file_path " + text_of(display) + " recreates it byte for byte";
}

std::string move_not_undoable_message(std::string_view display, std::string_view other, bool moved_here) {
    return "Cannot undo: the latest change of " + text_of(display) + " by this server is a move (" +
           (moved_here ? text_of(other) + " to " + text_of(display) : text_of(display) + " to " + text_of(other)) +
           "), and " + text_of(other) +
           " changed since, so undoing one side alone could lose the file or leave two copies. Nothing was changed. "
           "Move "
           "the file back with move (from and to swapped), or undo the later changes of " +
           text_of(other) + " first.";
}

std::string move_already_undone_message(std::string_view from, std::string_view to) {
    return "Nothing to undo: the move of " + text_of(from) + " to " + text_of(to) + " was undone meanwhile.";
}

std::string source_taken_again_message(std::string_view from, std::string_view to) {
    return cannot_undo_move(from, to) + "a file exists at " + text_of(from) +
           " again, and undo does not replace it. "
           "Nothing was changed. Move or delete that file first.";
}

std::string moved_file_gone_message(std::string_view from, std::string_view to) {
    return cannot_undo_move(from, to) + text_of(to) + " no longer exists. Nothing was changed.";
}

std::string moved_file_changed_message(std::string_view from, std::string_view to) {
    return cannot_undo_move(from, to) + text_of(to) +
           " changed since the move, so moving it back would carry those "
           "changes along unseen. Nothing was changed. Undo its later changes first "
           "(undo with file_path " +
           text_of(to) + "), or move it back with move.";
}

std::string undo_move_summary(bool dry_run, std::string_view tool, std::string_view from, std::string_view to,
                              bool replaced) {
    return (dry_run ? "Dry run (nothing written): would undo the latest " : "Undid the latest ") + text_of(tool) +
           " of " + text_of(from) + " by this server, a move: moved " + text_of(to) + " back to " + text_of(from) +
           (replaced ? ", and put back the file the move had replaced there." : ".");
}

}  // namespace tools
