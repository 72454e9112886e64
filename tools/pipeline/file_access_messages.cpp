// The file boundary's messages (file_access_messages.hpp). Each keeps the exact wording the tests
// and the models rely on.
#include "tools/pipeline/file_access_messages.hpp"

namespace tools {

std::string inside_git_directory_message(std::string_view display, std::string_view git_folder) {
    return "Refused: " + std::string(display) + " is inside " + std::string(git_folder) +
           ", a Git repository's own folder, which this server never writes. Change the repository "
           "with git itself; work on the files outside .git.";
}

std::string ignore_file_message(std::string_view display) {
    return "Refused: " + std::string(display) +
           " is one of this server's ignore files (--ignore-file); only the user changes it, so the rules "
           "stay theirs. Ask the user to edit it if a rule should change.";
}

std::string ignored_by_rule_message(std::string_view display, std::string_view inside, std::string_view rule,
                                    std::string_view rule_file, std::size_t line, bool write) {
    std::string message = "Refused: " + std::string(display);
    if (!inside.empty())
        message += " is inside " + std::string(inside) + ", which is";
    else
        message += " is";
    message +=
        " ignored by the rule `" + std::string(rule) + "` (" + std::string(rule_file) + ", line " +
        std::to_string(line) + "), so this server does not " + (write ? "change it" : "read it (--ignore-reads)") +
        ". Leave it alone, or ask the user to change that rule if the file should be " + (write ? "edited." : "read.");
    return message;
}

std::string file_not_found_message(std::string_view path, std::string_view real) {
    return "File not found: " + std::string(path) + " (resolved to " + std::string(real) +
           "). Check the path; to create the file, use write (or edit with an empty old_string).";
}

std::string file_vanished_message(std::string_view path) {
    return "File not found: " + std::string(path) + ". It may have been removed just now; check the path.";
}

std::string directory_not_file_message(std::string_view path) {
    return "Refused: " + std::string(path) + " is a directory. Pass the path of a file inside it.";
}

std::string not_regular_file_message(std::string_view path, std::string_view kind) {
    return "Refused: " + std::string(path) + " is " + std::string(kind) +
           ", not a regular file; only regular files can be read or changed.";
}

std::string file_too_large_message(std::string_view path, std::string_view size, std::string_view limit) {
    return "Refused: " + std::string(path) + " is " + std::string(size) + ", over the limit of " + std::string(limit) +
           " (--max-file-size).";
}

std::string cannot_read_message(std::string_view path, std::string_view detail) {
    return "Cannot read " + std::string(path) + ": " + std::string(detail) + ".";
}

std::string hard_links_under_ignore_reads_message(std::string_view path, std::size_t links) {
    return "Refused: " + std::string(path) + " has " + std::to_string(links - 1) + " other name" +
           (links == 2 ? "" : "s") +
           " (hard links), and with --ignore-reads a file that may be an ignored "
           "file under another name is not read or changed. Work on other files, or ask the user to give it a "
           "file of its own (copy it over itself).";
}

std::string unsupported_encoding_message(std::string_view path, std::string_view encoding, std::string_view why) {
    return "Refused: " + std::string(path) + " is " + std::string(encoding) + " text (by its byte-order mark), and " +
           std::string(why) +
           ". Files in UTF-8, UTF-16 with a byte-order mark, and the legacy encodings (Latin-1, cp1252, GBK, "
           "Shift_JIS, ...) can be read and changed.";
}

std::string cannot_encode_message(std::string_view path, std::string_view how, std::string_view what) {
    return "Nothing was written: " + std::string(path) + " is written in its own encoding, " + std::string(how) +
           ", which cannot hold the new text: " + std::string(what) +
           ". Send the change again without that character: spell it in ASCII, or write it as an escape "
           "sequence the file's language reads.";
}

std::string binary_file_message(std::string_view path, std::size_t nul_offset) {
    return "Refused: " + std::string(path) + " looks binary (a NUL byte at offset " + std::to_string(nul_offset) +
           "); only text files can be read or changed.";
}

}  // namespace tools
