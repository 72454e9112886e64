// The one-file change tools' messages (change_messages.hpp). Each keeps the exact wording the tests
// and the models rely on.
#include "tools/pipeline/change_messages.hpp"

namespace tools {

std::string file_now_facts(std::size_t lines, std::string_view sha256) {
    return "It has " + std::to_string(lines) + " line" + (lines == 1 ? "" : "s") + " now (sha256 " +
           std::string(sha256) + ").";
}

std::string not_read_message(std::string_view display, std::string_view why, std::string_view facts,
                             std::string_view next) {
    return "Refused: this session has not read " + std::string(display) + ", and " + std::string(why) +
           ". Nothing was written. " + std::string(facts) + " Call read on it first, then " + std::string(next) + ".";
}

std::string changed_since_read_message(std::string_view display, std::string_view why, std::string_view facts,
                                       std::string_view next) {
    return "Refused: " + std::string(display) +
           " changed on disk since this session last read or wrote it (another program or a "
           "formatter changed its content), and " +
           std::string(why) + ". Nothing was written. " + std::string(facts) + " Call read on it again, then " +
           std::string(next) + ".";
}

std::string change_target_missing_message(std::string_view path, std::string_view real) {
    return "File not found: " + std::string(path) + " (resolved to " + std::string(real) +
           "). Check the path with read; to create a new file use write, or edit with an empty old_string.";
}

std::string result_too_large_message(std::size_t size, std::uint64_t limit) {
    return "Refused: the result would be " + std::to_string(size) + " bytes, over the limit of " +
           std::to_string(limit) + " (--max-file-size).";
}

std::string no_change_summary(std::string_view display) {
    return "No change: " + std::string(display) + " already has this content; nothing was written.";
}

std::string edits_cancel_out_note() {
    return " The edits cancel each other out: applied in order, they give back the file as it was.";
}

std::string already_there_note(std::size_t replacements, std::string_view match) {
    return " The new text is what the file already has at the " + std::string(replacements == 1 ? "place" : "places") +
           " found" + (match.empty() ? "" : " (match: " + std::string(match) + ")") + ".";
}

std::string expected_replacements_message(std::int64_t found, std::string_view display, std::string_view places,
                                          std::int64_t expected) {
    return "Refused: old_string matches " + std::to_string(found) + " place" + (found == 1 ? "" : "s") + " in " +
           std::string(display) + " (line" + (found == 1 ? " " : "s ") + std::string(places) +
           "), but expected_replacements is " + std::to_string(expected) +
           "; nothing was changed. Make old_string longer so it matches only the places you mean, or send "
           "expected_replacements: " +
           std::to_string(found) + " to replace all of them.";
}

std::string creation_counts_one_message(std::int64_t expected) {
    return "expected_replacements is " + std::to_string(expected) +
           ", but an empty old_string creates the file: one change. Send expected_replacements: 1 "
           "or leave it out.";
}

std::string empty_old_string_on_content_message(std::string_view display) {
    return "old_string is empty, but " + std::string(display) +
           " already exists and is not empty. To change part of it, put the exact text to "
           "replace in old_string (read it first); to replace the whole file, use write.";
}

std::string edit_target_missing_message(std::string_view display) {
    return "File not found: " + std::string(display) +
           ". To create it, call edit with an empty old_string (or write) and the whole content in new_string.";
}

std::string create_only_exists_message(std::string_view display) {
    return "Refused: " + std::string(display) +
           " already exists, and create_only asks to create a new file only; nothing was "
           "written. To replace it: read it, then write without create_only; to change part "
           "of it: edit. Or choose another file_path.";
}

std::string write_unread_message(std::string_view display) {
    return "Refused: " + std::string(display) +
           " already exists and this session has not read it. Call read on it first (so "
           "nothing in it is overwritten unseen), then write again; for a targeted "
           "change, edit is safer than rewriting the whole file.";
}

std::string write_stale_message(std::string_view display) {
    return "Refused: " + std::string(display) +
           " changed on disk since this session last read or wrote it (another program "
           "or a formatter changed its content). Call read on it again, then write.";
}

std::string insert_by_number_reason(std::int64_t line) {
    return "insert places its text after line " + std::to_string(line) +
           " by number, which must come from the file's current content";
}

std::string insert_again_next() {
    return "insert again at the line number read shows (line 0 or -1 for the top or the end)";
}

}  // namespace tools
