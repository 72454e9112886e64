// read's messages (read_messages.hpp). Each keeps the exact wording the tests and the models rely on.
#include "tools/handlers/read_messages.hpp"

#include <algorithm>

namespace tools {

std::string image_too_large_message(std::string_view given, std::string_view mime, std::string_view size,
                                    std::string_view max_image) {
    return "Refused: " + std::string(given) + " is an image (" + std::string(mime) + ") of " + std::string(size) +
           ", over the " + std::string(max_image) +
           " that read returns as image content (base64 grows it by a third, and clients drop "
           "replies over 10 MiB). Ask the user to make a smaller copy (scaled down or "
           "recompressed) and read that.";
}

std::string image_summary(std::string_view display, std::string_view mime, std::size_t bytes) {
    return "Image " + std::string(display) + ": " + std::string(mime) + ", " + std::to_string(bytes) +
           " bytes; shown as image content.";
}

std::string offset_past_end_message(std::size_t offset, std::string_view path, std::size_t total_lines) {
    return "offset " + std::to_string(offset) + " is past the end of " + std::string(path) + ", which has " +
           std::to_string(total_lines) + " line" + (total_lines == 1 ? "" : "s") +
           ". Call read with offset between 1 and " + std::to_string(std::max<std::size_t>(total_lines, 1)) + ".";
}

std::string read_many_summary(std::size_t read, std::size_t count, std::size_t failed, std::size_t not_fitting) {
    std::string summary = "Read " + std::to_string(read) + " of " + std::to_string(count) + " files";
    if (failed) summary += " (" + std::to_string(failed) + " could not be read: see [not read])";
    if (not_fitting) summary += "; " + std::to_string(not_fitting) + " did not fit in this reply (see the end)";
    return summary;
}

std::string not_fitting_note(std::size_t not_fitting, std::size_t budget, std::string_view names) {
    return "\n\n[not read] " + std::to_string(not_fitting) + " more file" + (not_fitting == 1 ? "" : "s") +
           " did not fit in this reply (about " + std::to_string(budget) +
           " bytes of text for this client): " + std::string(names) + ". Read " + (not_fitting == 1 ? "it" : "them") +
           " in another call (read with file_paths: the rest of the list).";
}

std::string images_fill_reply_message(std::string_view max_image, std::string_view path) {
    return "Not shown: the images before it in this call already fill the " + std::string(max_image) +
           " one reply carries. Read " + std::string(path) + " alone.";
}

std::string read_needs_file_message() {
    return "read needs file_path (one file) or file_paths (a list of files). Call read "
           "again with one of them.";
}

std::string unknown_encoding_message(std::string_view encoding) {
    return "Refused: encoding '" + std::string(encoding) +
           "' is not one this server converts. Use one of: utf-8, utf-16le, utf-16be, iso-8859-1 (latin-1), "
           "iso-8859-2 ... iso-8859-15, windows-1250 ... windows-1258 (cp1252 ...), koi8-r, koi8-u, gbk (gb2312), "
           "gb18030, big5, shift_jis, euc-jp, euc-kr, windows-874.";
}

std::string not_in_requested_encoding_message(std::string_view path, std::string_view encoding, std::string_view note,
                                              std::string_view how) {
    return "Refused: " + std::string(path) + " cannot be read as " + std::string(encoding) + ": " + std::string(note) +
           ". Without encoding it reads as " + std::string(how) + ".";
}

std::string encoding_note(std::string_view note, os::EncodingSource source) {
    if (source != os::EncodingSource::fallback) return std::string(note);
    return std::string(note) + (note.empty() ? "" : "; ") +
           "bytes that are not UTF-8 are shown as U+FFFD. If you know the file's encoding, read it again with "
           "encoding (e.g. gbk, shift_jis, windows-1252): it is then shown as text and changes are written in it";
}

}  // namespace tools
