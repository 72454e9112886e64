// multiedit's messages (multiedit_messages.hpp). Each keeps the exact wording the tests and the
// models rely on.
#include "tools/handlers/multiedit_messages.hpp"

namespace tools {

namespace {

std::string edit_name(std::size_t edit) { return "edits[" + std::to_string(edit) + "]"; }

// "line 4" or "lines 4-6".
std::string lines_named(const text::LineRange& lines) {
    return std::string("line") + (lines.first == lines.last ? " " : "s ") + text::to_string(lines);
}

}  // namespace

std::string original_file_missing_message(std::string_view display) {
    return "File not found: " + std::string(display) +
           ". With against \"original\" every edit is located in the existing file; to "
           "create it, call write (or multiedit without against) with the whole content.";
}

std::string empty_old_string_against_original_message(std::size_t edit) {
    return edit_name(edit) +
           ": old_string is empty; with against \"original\" every edit replaces "
           "text of the existing file. No edit was applied.";
}

std::string replacements_count_failed_message(std::size_t edit, std::string_view why) {
    return edit_name(edit) + " failed, so no edit was applied (all or nothing):\n" + std::string(why);
}

std::string edit_not_matched_in_original_message(std::size_t edit, std::string_view why) {
    return edit_name(edit) +
           " failed, so no edit was applied (all or nothing; every edit is "
           "matched against the original file):\n" +
           std::string(why);
}

std::string edits_overlap_message(std::size_t second, const text::LineRange& second_lines, std::size_t first,
                                  const text::LineRange& first_lines) {
    return edit_name(second) + " (" + lines_named(second_lines) + ") overlaps " + edit_name(first) + " (" +
           lines_named(first_lines) +
           "), so no edit was applied. With against \"original\" every edit is located on the original file "
           "and they must not touch the same text: merge the two into one edit, or drop against to apply each "
           "edit to the result of the one before.";
}

std::string edits_splice_failed_message(std::string_view why) {
    return "Internal error while applying the edits: " + std::string(why);
}

std::string only_first_edit_creates_message(std::size_t edit) {
    return edit_name(edit) + ": old_string is empty; only the first edit may create the file. No edit was applied.";
}

std::string edit_failed_message(std::size_t edit, std::string_view why) {
    return edit_name(edit) + " failed, so no edit was applied (all or nothing)" +
           (edit > 0
                ? " — note that it is matched against the file as edits[0.." + std::to_string(edit - 1) + "] left it"
                : std::string()) +
           ":\n" + std::string(why);
}

std::string ambiguity_made_by_earlier_edits_message(std::size_t edit, std::size_t places,
                                                    std::size_t line_in_original) {
    const std::string earlier = edit == 1 ? "edits[0]" : "edits[0.." + std::to_string(edit - 1) + "]";
    std::string m = edit_name(edit) + " failed, so no edit was applied (all or nothing): its old_string matches " +
                    std::to_string(places) + " places in the file as " + earlier + " left it, but ";
    m += line_in_original ? "only one in the file as it is (line " + std::to_string(line_in_original) + ")"
                          : "none in the file as it is";
    m += ": " + earlier + (places == 2 ? " wrote the other." : " wrote the others.") +
         " To locate every edit on the file as it is (each old_string "
         "found in the original, the changes made together), send the same edits with against: \"original\". "
         "Do not set replace_all: it would also change the text " +
         earlier + " wrote.";
    return m;
}

}  // namespace tools
