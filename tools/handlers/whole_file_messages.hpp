// What move, delete and undo of a move tell the model (tools/handlers/whole_file_change.cpp, move.cpp,
// delete.cpp, file_moves.cpp): a file refused (a link, missing, a folder, not regular, in the way),
// a move that cannot be undone, and the summaries of what was moved or deleted. The tools decide;
// these word it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tools {

// ---- the file named (whole_file_change.cpp) ----
// `tool` ("move", "delete") and the argument (`role`) that named `path`.
std::string symlink_refused_message(std::string_view path, std::string_view target, std::string_view tool,
                                    std::string_view role);
std::string nothing_to_message(std::string_view tool, std::string_view path, std::string_view real);
std::string folder_not_moved_message(std::string_view path);
std::string not_regular_for_tool_message(std::string_view path, std::string_view kind, std::string_view tool);
// What to do after reading a file whose content a call loses: "call move again".
std::string call_again_next(std::string_view tool);

// ---- move (move.cpp) ----
std::string mode_kept_note(std::string_view octal_mode);
std::string same_file_move_message(std::string_view display);
std::string link_destination_message(std::string_view to);
std::string destination_not_regular_message(std::string_view display, std::string_view kind);
std::string destination_exists_message(std::string_view display, std::uint64_t size);
std::string overwrite_loses_content_reason();
std::string move_summary(bool dry_run, std::string_view from, std::string_view to, bool overwrite,
                         std::size_t additions, std::size_t removals);

// ---- delete (delete.cpp) ----
// "a binary file of N bytes, sha256 X" (else a UTF-16/32 file).
std::string opaque_file_facts(bool binary, std::size_t size, std::string_view sha256);
std::string root_not_deleted_message(std::string_view display);
std::string cannot_look_into_message(std::string_view display, std::string_view why);
std::string folder_not_empty_message(std::string_view display);
std::string empty_folder_summary(bool dry_run, std::string_view display);
// The approval form's "diff" of an empty folder deleted: one sentence.
std::string empty_folder_shown_diff(std::string_view display);
std::string cannot_delete_folder_message(std::string_view display, std::string_view why);
std::string folder_not_recreated_note();
std::string deletion_loses_content_reason();
// `opaque`: opaque_file_facts for a file read cannot show, else "" (the removed lines are counted).
std::string deletion_summary(bool dry_run, std::string_view display, std::size_t removals, std::string_view opaque);
std::string undo_recreates_note(std::string_view display);

// ---- undo of a move (file_moves.cpp) ----
// The latest change of `display` is one side of a move with `other`; `moved_here`: `display` is its destination.
std::string move_not_undoable_message(std::string_view display, std::string_view other, bool moved_here);
std::string move_already_undone_message(std::string_view from, std::string_view to);
std::string source_taken_again_message(std::string_view from, std::string_view to);
std::string moved_file_gone_message(std::string_view from, std::string_view to);
std::string moved_file_changed_message(std::string_view from, std::string_view to);
// `tool`: the move's tool (move, apply_diff); `replaced`: a file the move replaced is put back.
std::string undo_move_summary(bool dry_run, std::string_view tool, std::string_view from, std::string_view to,
                              bool replaced);

}  // namespace tools
