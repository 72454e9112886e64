// The listing tools' messages (listing_messages.hpp). Each keeps the exact wording the tests and
// the models rely on.
#include "tools/pipeline/listing_messages.hpp"

#include "base/wording.hpp"

namespace tools {

std::string listing_folder_missing_message(std::string_view tool, std::string_view display) {
    return std::string(tool) + ": " + std::string(display) +
           " does not exist. Call list with path set to its parent folder (or \".\") to see what "
           "is there.";
}

std::string listing_file_not_folder_message(std::string_view tool, std::string_view display) {
    return std::string(tool) + ": " + std::string(display) + " is a file, not a folder. Call read with file_path " +
           std::string(display) + " to see it, or " + std::string(tool) + " its folder.";
}

std::string listing_not_folder_message(std::string_view tool, std::string_view display, std::string_view kind) {
    return std::string(tool) + ": " + std::string(display) + " is " + std::string(kind) + ", not a folder. Call " +
           std::string(tool) + " with the path of a folder.";
}

std::string listing_ignored_message(std::string_view tool, std::string_view display) {
    return "Refused: " + std::string(display) +
           " is ignored by an ignore rule, and this server does not show ignored paths "
           "(--ignore-reads). Call " +
           std::string(tool) + " on a folder outside it.";
}

std::string too_deep_line(std::uint64_t folders, std::size_t max_depth, std::string_view named, std::string_view tool) {
    return "Incomplete: " + base::count_of(folders, "folder", "folders") + " " + std::to_string(max_depth) +
           " levels down " + (folders == 1 ? "was" : "were") + " not entered (the depth limit): " + std::string(named) +
           ". Call " + std::string(tool) + " with path set to one of them to see below it.\n";
}

std::string crowded_line(std::uint64_t folders, std::uint64_t max_entries, std::uint64_t unread, std::string_view named,
                         std::string_view tool) {
    return "Incomplete: " + base::count_of(folders, "folder holds", "folders hold") + " more than " +
           base::with_commas(max_entries) + " entries; " + base::with_commas(unread) +
           " entries past those were not read: " + std::string(named) + ". Call " + std::string(tool) +
           " on smaller folders, or narrow the pattern.\n";
}

std::string links_not_followed_line(std::uint64_t links, std::uint64_t max_followed, std::string_view tool) {
    return "Incomplete: " + base::count_of(links, "symlink to a folder was", "symlinks to folders were") +
           " not followed (at most " + base::with_commas(max_followed) + " are followed in one call). Call " +
           std::string(tool) + " with path set to a folder below them.\n";
}

std::string list_not_shown_note(std::string_view more, bool at_least, std::size_t depth, std::string_view budget) {
    std::string s =
        "Not shown: " + std::string(more) + (at_least ? " at least" : "") + " within depth " + std::to_string(depth);
    s += !budget.empty() ? " (one result stays under " + std::string(budget) + " of JSON text)"
                         : " (large folders are collapsed)";
    s += ". To see them, call list with path set to one of the folders above, or a lower depth; find "
         "locates files by name.";
    return s;
}

std::string list_unopened_note(std::size_t depth) {
    return "Folders at depth " + std::to_string(depth) +
           " were not opened: call list with path set to one of "
           "them, or a larger depth (at most 10).";
}

std::string list_hard_links_note(std::uint64_t files) {
    return "Line counts not shown for " + base::count_of(files, "file", "files") +
           " with other names (hard links): with --ignore-reads such a file may be an ignored file under another "
           "name, and it is not read.";
}

std::string grep_pattern_message(std::string_view error) { return "grep: " + std::string(error); }

std::string grep_glob_message(std::string_view glob, bool cut, std::string_view error) {
    return "grep: glob `" + std::string(glob) + (cut ? "\u2026" : "") + "`: " + std::string(error) +
           ". Send a glob such as `*.py`, `src/**/*.ts` or `*.{c,h}`, or leave glob out.";
}

std::string grep_hard_links_message(std::string_view shown, std::uint64_t links) {
    return "Refused: " + std::string(shown) + " has " + std::to_string(links - 1) + " other name" +
           (links == 2 ? "" : "s") +
           " (hard links), and with --ignore-reads a file that may be an ignored file "
           "under another name is not read or searched. Search other files, or ask "
           "the user to give it a file of its own (copy it over itself).";
}

std::string grep_no_matches_head(bool literal, std::string_view pattern, std::uint64_t searched,
                                 std::string_view where) {
    return "No matches for " + std::string(literal ? "the text" : "the pattern") + " `" + std::string(pattern) +
           "` in " + base::count_of(searched, "file", "files") + " under " + std::string(where) + ".";
}

std::string grep_matches_head(std::uint64_t matches, std::uint64_t files, std::string_view where,
                              std::uint64_t searched, std::uint64_t shown) {
    return base::count_of(matches, "matching line", "matching lines") + " in " +
           base::count_of(files, "file", "files") + " under " + std::string(where) + " (" +
           base::count_of(searched, "file", "files") + " searched)" +
           (shown ? "; " + base::with_commas(shown) + " shown" : std::string()) + ":";
}

std::string grep_more_matches_line(std::uint64_t matches, std::uint64_t files) {
    return "\n" + base::count_of(matches, "more match", "more matches") + " in " +
           base::count_of(files, "file", "files") + "; narrow with glob or path (or raise max_results).";
}

std::string grep_over_size_part(std::uint64_t files) {
    return base::count_of(files, "file", "files") + " over --max-file-size";
}

std::string grep_encoding_part(std::string_view encoding) {
    if (encoding.empty()) return {};
    return " (" + std::string(encoding) + ", searched and shown as its text)";
}

std::string grep_unreadable_part(std::uint64_t files) {
    return base::count_of(files, "file", "files") + " that could not be read";
}

std::string grep_hard_links_part(std::uint64_t files) {
    return base::count_of(files, "file", "files") +
           " with other names (hard links), which --ignore-reads keeps from being read (one of "
           "the names may be an ignored file's)";
}

std::string grep_backtracking_line(std::uint64_t lines, std::string_view named, std::uint64_t more) {
    std::string line = "\nThe pattern gave up (too much backtracking) on " + base::count_of(lines, "line", "lines") +
                       ", which " + (lines == 1 ? "was" : "were") + " not searched: " + std::string(named);
    if (more) line += ", and " + base::with_commas(more) + " more";
    line += ". Simplify nested repetitions such as (a+)+ or long ranges such as [\\s\\S]{1,4000}.";
    return line;
}

}  // namespace tools
