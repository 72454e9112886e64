// The call-shape mapping's messages (call_shape_messages.hpp). Each keeps the exact wording the
// tests and the models rely on.
#include "tools/pipeline/call_shape_messages.hpp"

namespace tools {

namespace {

std::string as_string(std::string_view text) { return std::string(text); }

}  // namespace

std::string view_range_message(std::string_view got) {
    return "view_range must be [first, last]: line numbers from 1, last -1 for the end of the file (got " +
           as_string(got) + "). Or call read with `offset` (first line) and `limit` (how many lines).";
}

std::string unknown_editor_command_message(std::string_view command_json) {
    return "`command` " + as_string(command_json) +
           " is not a text-editor command this server knows: use str_replace, create, insert, view "
           "or undo_edit, or call edit, write, insert, read or undo with their own arguments.";
}

std::string editor_command_note(std::string_view command, std::string_view tool) {
    return "Read `command: \"" + as_string(command) + "\"` as a call of " + as_string(tool) + ".";
}

std::string empty_new_str_note() { return "Read the missing `new_str` as empty (the old text is deleted)."; }

std::string pair_and_edits_message(std::string_view tool, std::string_view pair) {
    return as_string(tool) + " got " + as_string(pair) +
           " at the top level and a list in `edits`: send one or the other. "
           "Several changes: only `edits`, each entry with its old and new text (put the top-level pair "
           "into the list). One change: the pair without `edits`.";
}

std::string pi_edits_note() {
    return "Read edit with `edits` of oldText/newText (pi's shape) as multiedit with against "
           "\"original\": every edit located on the file as it is, all applied together.";
}

std::string edits_as_multiedit_note() {
    return "Read edit with `edits` as multiedit (each edit applied in order on the result of "
           "the one before; all or nothing).";
}

std::string roo_args_and_diff_message() {
    return "apply_diff got both `args` (Roo's XML) and `diff`: send one of them.";
}

std::string roo_xml_unreadable_message(std::string_view key, std::string_view error) {
    return "apply_diff could not read the XML in `" + as_string(key) + "`: " + as_string(error) +
           ". Or call apply_diff with `file_path` and `diff` (the SEARCH/REPLACE blocks).";
}

std::string roo_file_path_and_files_message(std::size_t files) {
    return "apply_diff got `file_path` and XML naming " + std::to_string(files) +
           " files: send the XML alone (each `<file>` has its `<path>`).";
}

std::string roo_files_note(std::string_view key, std::size_t files) {
    return "Read the XML in `" + as_string(key) + "` as one apply_diff over its " + std::to_string(files) +
           " files (all or nothing).";
}

std::string roo_file_path_and_path_message(std::string_view file_path_json, std::string_view path_json) {
    return "apply_diff got `file_path` " + as_string(file_path_json) + " and a `<path>` " + as_string(path_json) +
           " in the XML: send one of them.";
}

std::string roo_one_file_note(std::string_view key) {
    return "Read the XML in `" + as_string(key) + "` as `file_path` and `diff`.";
}

std::string safety_name_not_boolean_message(std::string_view tool, std::string_view from, std::string_view got,
                                            std::string_view to, bool negated) {
    return as_string(tool) + ": `" + as_string(from) + "` must be true or false (got " + as_string(got) +
           "); it is read as `" + as_string(to) + "`" + (negated ? " with the opposite value" : "") + ". Send `" +
           as_string(to) + "`: true or false.";
}

std::string safety_names_contradict_message(std::string_view tool, std::string_view from, std::string_view from_json,
                                            std::string_view to, std::string_view to_json, bool negated) {
    return as_string(tool) + " got `" + as_string(from) + "`: " + as_string(from_json) + " and `" + as_string(to) +
           "`: " + as_string(to_json) + ", which contradict each other (`" + as_string(from) + "` is read as `" +
           as_string(to) + "`" + (negated ? " with the opposite value" : "") + "): send only `" + as_string(to) + "`.";
}

std::string safety_name_note(std::string_view from, std::string_view from_json, std::string_view to, bool value) {
    return "Read `" + as_string(from) + "`: " + as_string(from_json) + " as `" + as_string(to) +
           "`: " + (value ? "true" : "false") + ".";
}

}  // namespace tools
