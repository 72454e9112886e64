// apply_diff's messages (apply_diff_messages.hpp). Each keeps the exact wording the tests and the
// models rely on.
#include "tools/handlers/apply_diff_messages.hpp"

namespace tools {

namespace {

constexpr std::string_view roo_xml_note =
    "The diff is Roo Code's XML form (<args><file><path>...</path><diff>...</diff></file></args>), which is not a "
    "format apply_diff reads. apply_diff takes as diff: SEARCH/REPLACE blocks (<<<<<<< SEARCH / ======= / "
    ">>>>>>> REPLACE) with file_path set to the file they change; a unified diff (--- a/PATH, +++ b/PATH, @@ "
    "hunks; several files in one diff); or an *** Begin Patch envelope (*** Update File: PATH ... *** End Patch).";

}  // namespace

std::string roo_xml_message(std::string_view error) { return std::string(roo_xml_note) + "\n" + std::string(error); }

std::string roo_xml_without_file_path_message() {
    return std::string(roo_xml_note) +
           " For SEARCH/REPLACE blocks, set file_path to the file they change and "
           "pass the blocks alone as diff (one call per file).";
}

std::string roo_file_message(std::string_view path, std::string_view error) {
    return "In the XML's <file> for " + std::string(path) + ": " + std::string(error);
}

std::string roo_file_not_search_replace_message(std::string_view path) {
    return "In the XML's <file> for " + std::string(path) +
           ": its <content> is not SEARCH/REPLACE blocks. Nothing was changed.";
}

std::string empty_patch_message() { return "The patch names no file and holds no block: nothing to apply."; }

std::string blocks_need_file_path_message() {
    return "SEARCH/REPLACE blocks need file_path: call apply_diff with file_path set to the file they change.";
}

std::string patch_not_applied_message(std::string_view why) {
    return "The patch was not applied (no file was changed): " + std::string(why);
}

std::string one_file_in_two_sections_message(std::string_view first, std::string_view second, std::string_view reason,
                                             bool creates, bool deletes) {
    return "The patch was not applied (no file was changed): its sections for " + std::string(first) + " and " +
           std::string(second) + " name one file (" + std::string(reason) + "), and one of them " +
           (creates   ? "creates"
            : deletes ? "deletes"
                      : "moves") +
           " it. Put all of this file's changes in one section, under one name, and call again.";
}

std::string file_touched_twice_message(std::string_view display) {
    return "The patch touches " + std::string(display) +
           " twice; put all of a file's changes in one section and call again.";
}

std::string some_hard_link_names_message(std::size_t named, std::string_view display, std::size_t links) {
    return "Refused: the patch names " + std::to_string(named) + " names of one file (" + std::string(display) +
           " and its hard links), which has " + std::to_string(links) +
           " names; the others may lie outside the roots or be ignored, so it is not written through "
           "them. "
           "Send the sections for one of its names only: that name then gets a file of its own and the "
           "other names keep the old content. Nothing was written.";
}

std::string deletes_unseen_reason() { return "the patch deletes it without showing its content"; }

std::string placed_by_line_number_reason(std::string_view placed) {
    return "the patch places lines by line number alone (" + std::string(placed) +
           "; no lines of the file to match), which must come from its current content";
}

std::string send_patch_again_next() { return "send the patch again, made on its current content"; }

std::string move_target_exists_message(std::string_view source, std::string_view destination) {
    return std::string(source) + " cannot move to " + std::string(destination) +
           ": that file exists already. Delete it first or pick another name.";
}

std::string patched_file_missing_message(std::string_view display, bool deletes) {
    return std::string(display) + ": file not found (the patch " + (deletes ? "deletes" : "changes") +
           " it). Check the path; a new file is written as a creation (--- /dev/null, or *** Add File:).";
}

std::string patch_failed_message(std::string_view failures) {
    return "The patch was not applied (all or nothing: no file was changed):" + std::string(failures);
}

std::string merged_names_note(std::string_view names, std::string_view reason) {
    return " " + std::string(names) + " are one file (" + std::string(reason) +
           "): their sections were applied together, on its one content.";
}

std::string patch_summary(bool dry_run, std::size_t files, std::string_view kinds, std::string_view format,
                          std::size_t blocks, std::size_t additions, std::size_t removals) {
    return std::string(dry_run ? "Dry run (nothing written): the patch would change " : "Applied the patch to ") +
           std::to_string(files) + " file" + (files == 1 ? "" : "s") + " (" +
           (kinds.empty() ? std::string() : std::string(kinds) + "; ") + std::string(format) + ", " +
           std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") + ", +" + std::to_string(additions) + " -" +
           std::to_string(removals) + ").";
}

}  // namespace tools
