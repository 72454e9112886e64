// What apply_diff tells the model (tools/handlers/apply_diff.cpp, tools/handlers/patch_files.cpp): the patch refused
// before any file is read (its form, its file names), a file's planning failed, the summary of a
// patch applied. The tool decides; these word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tools {

// ---- the patch's form ----
// The parser's `error` for a diff that mentions Roo Code's XML form, led by what apply_diff takes.
std::string roo_xml_message(std::string_view error);
// SEARCH/REPLACE blocks in Roo Code's XML form without file_path.
std::string roo_xml_without_file_path_message();
// In Roo Code's XML naming several files, `path`'s <file> failed to parse (`error`) or holds
// something other than SEARCH/REPLACE blocks.
std::string roo_file_message(std::string_view path, std::string_view error);
std::string roo_file_not_search_replace_message(std::string_view path);
std::string empty_patch_message();
std::string blocks_need_file_path_message();

// ---- the patch's files ----
// A refusal of one of the patch's files (`why`): the patch as a whole was not applied.
std::string patch_not_applied_message(std::string_view why);
// Two sections (`first`, `second`) name one file (`reason`), and one of them creates, deletes or moves it.
std::string one_file_in_two_sections_message(std::string_view first, std::string_view second, std::string_view reason,
                                             bool creates, bool deletes);
std::string file_touched_twice_message(std::string_view display);
// The patch names `named` names of a file that has `links` (hard links), not all of them.
std::string some_hard_link_names_message(std::size_t named, std::string_view display, std::size_t links);

// ---- planning (patch_files.cpp) ----
// What a file's change relies on the model having seen.
std::string deletes_unseen_reason();
std::string placed_by_line_number_reason(std::string_view placed);
std::string send_patch_again_next();
std::string move_target_exists_message(std::string_view source, std::string_view destination);
std::string patched_file_missing_message(std::string_view display, bool deletes);
// Every file's failure (`failures`: "\n- ..." each): nothing was applied.
std::string patch_failed_message(std::string_view failures);

// ---- the report ----
// " a and b are one file (hard links): ..." after the summary, one per file named several ways.
std::string merged_names_note(std::string_view names, std::string_view reason);
// "Applied the patch to 2 files (1 created; unified, 3 blocks, +4 -1)."; `kinds`: "1 deleted, 2 created" or "".
std::string patch_summary(bool dry_run, std::size_t files, std::string_view kinds, std::string_view format,
                          std::size_t blocks, std::size_t additions, std::size_t removals);

}  // namespace tools
