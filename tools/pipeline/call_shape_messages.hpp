// What the mapping of other agents' call shapes tells the model (tools/pipeline/call_shapes.cpp): the notes
// saying how a call was read, and the refusals when it cannot be read one way only. The mapping
// decides; these word it. JSON values come already shown (dumped or excerpted).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tools {

// ---- Claude's text editor ----
std::string view_range_message(std::string_view got);
std::string unknown_editor_command_message(std::string_view command_json);
std::string editor_command_note(std::string_view command, std::string_view tool);
std::string empty_new_str_note();

// ---- edits lists ----
// `pair`: the top-level names the caller used, as "`oldText`/`newText`".
std::string pair_and_edits_message(std::string_view tool, std::string_view pair);
std::string pi_edits_note();
std::string edits_as_multiedit_note();

// ---- Roo Code's XML ----
std::string roo_args_and_diff_message();
std::string roo_xml_unreadable_message(std::string_view key, std::string_view error);
std::string roo_file_path_and_files_message(std::size_t files);
std::string roo_files_note(std::string_view key, std::size_t files);
std::string roo_file_path_and_path_message(std::string_view file_path_json, std::string_view path_json);
std::string roo_one_file_note(std::string_view key);

// ---- safety arguments under other names ----
// `from` is read as `to` (`negated`: with the opposite value).
std::string safety_name_not_boolean_message(std::string_view tool, std::string_view from, std::string_view got,
                                            std::string_view to, bool negated);
std::string safety_names_contradict_message(std::string_view tool, std::string_view from, std::string_view from_json,
                                            std::string_view to, std::string_view to_json, bool negated);
std::string safety_name_note(std::string_view from, std::string_view from_json, std::string_view to, bool value);

}  // namespace tools
