// The common model every apply_diff format is parsed into: files, and the blocks (old lines to find,
// new lines to put) of each. The three parsers produce it and the planner consumes it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace text {

enum class PatchFormat { search_replace, unified, apply_patch };
// "search_replace", "unified", "apply_patch"
const char* to_string(PatchFormat format);

enum class FileAction { update, create, remove };
// "update", "create", "delete"
const char* to_string(FileAction action);

// One SEARCH/REPLACE block, unified-diff hunk or apply_patch chunk.
struct PatchBlock {
    std::size_t index = 0;       // 1-based, counted over the whole patch
    std::size_t patch_line = 0;  // 1-based line of the patch text where the block starts
    // Whole lines with "\n" newlines, each one ended by "\n" (also the last). old_text empty: a pure
    // insertion (new_text goes in after line start_line, or after the last anchor, or at the end).
    std::string old_text;
    std::string new_text;
    // Where old_text starts in the file (SEARCH/REPLACE `:start_line:`, a hunk's old start); for a
    // pure insertion, the line it goes after (0 = before line 1). A hint: a unique match elsewhere wins.
    std::optional<std::size_t> start_line;
    std::optional<std::size_t> end_line;  // SEARCH/REPLACE `:end_line:` (kept for messages)
    // A unified hunk header's count of old lines. More than old_text has: the hunk left lines out,
    // and its header says where it starts and ends (evidence, as GNU patch takes it).
    std::optional<std::size_t> stated_old_count;
    std::optional<std::size_t> stated_new_count;  // its count of new lines (the same lines left out count there too)
    std::vector<std::string> anchors;             // apply_patch `@@ LINE` anchors, outermost first
    bool at_end_of_file = false;                  // `*** End of File` or `\ No newline`: old_text ends the file
    // apply_patch: the chunk comes after the file's previous chunk; when old_text occurs several
    // times, the first occurrence after that chunk (and after the anchors) is the one meant.
    bool after_previous = false;
    // When the block reaches the end of the file: whether the result ends with a newline (a unified
    // `\ No newline at end of file` sets it). Unset: the way the file was.
    std::optional<bool> final_newline;
    // The added lines with the newlines the patch gave them ("\r\n" kept): what a file created by
    // the patch is written with. Unified diffs and apply_patch `*** Add File:` fill it.
    std::string new_text_as_given;
    // Unified diffs and apply_patch: ' ', '-' or '+' for each line of the block in the patch's
    // order (which says on which side of a left-out line an added line goes). Empty: not given
    // (SEARCH/REPLACE), old and new lines are paired by diff_lines.
    std::string ops;
};

struct FilePatch {
    FileAction action = FileAction::update;
    std::string path;                    // as the patch names it; empty for SEARCH/REPLACE
    std::optional<std::string> move_to;  // apply_patch `*** Move to:`, git `rename to`
    std::size_t patch_line = 0;          // 1-based line where this file's section starts
    // update: the blocks; create: the content as new_text of its blocks (old_text empty);
    // remove: the content removed, when the patch shows it (verified), or nothing.
    std::vector<PatchBlock> blocks;
};

struct Patch {
    PatchFormat format = PatchFormat::search_replace;
    std::vector<FilePatch> files;
    std::size_t block_count = 0;  // blocks over all files
};

// A patch that cannot be read: what is wrong, where, and what a correct one looks like.
struct PatchError {
    std::string message;
    std::size_t patch_line = 0;  // 1-based; 0 when no line is to blame
};

}  // namespace text
