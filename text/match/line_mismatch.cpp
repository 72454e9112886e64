// Describing one line's difference from old_string's line, and showing lines with visible whitespace.
#include "text/match/line_mismatch.hpp"

#include <algorithm>
#include <vector>

#include "text/unicode/escapes.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/bytes/lines.hpp"
#include "text/unicode/typography.hpp"
#include "text/unicode/unicode_fold.hpp"

namespace text {

std::string render_visible(std::string_view line, std::size_t from, std::size_t max_bytes) {
    const std::size_t lead = indentation(line).size();
    std::size_t trail = line.size();
    while (trail > lead && (line[trail - 1] == ' ' || line[trail - 1] == '\t' || line[trail - 1] == '\r')) --trail;
    std::size_t to = line.size();
    bool cut = false;
    if (to - from > max_bytes) {
        to = from + max_bytes;
        to = utf8_floor(line, to, from);  // not inside a character
        cut = true;
    }
    std::string out = from > 0 ? "\u2026" : "";
    std::string body;
    body.reserve(to - from + 16);
    for (std::size_t i = from; i < to; ++i) {
        const char c = line[i];
        if (c == '\t') {
            body += "\u2192";
        } else if (c == ' ' && (i < lead || i >= trail)) {
            body += "\u00B7";
        } else if (c == '\r') {
            body += "\u240D";
        } else {
            body += c;
        }
    }
    out += to_valid_utf8(body);
    if (cut) out += "\u2026";
    return out;
}

std::string visible_whitespace(std::string_view line, std::size_t max_bytes) {
    return render_visible(line, 0, max_bytes);
}

namespace {

constexpr std::size_t kEscapedBytes = 24;  // of each line, where two lines differ in look-alike bytes

// For two lines that may look the same when shown (look-alike characters, invalid UTF-8 shown as
// U+FFFD, invisible characters): their bytes around the first difference, escaped.
std::string differing_bytes(std::string_view file_line, std::string_view needle_line, std::string_view old_name) {
    std::size_t i = 0;
    while (i < file_line.size() && i < needle_line.size() && file_line[i] == needle_line[i]) ++i;
    std::size_t from = i > 8 ? i - 8 : 0;
    from = utf8_floor(file_line, from);
    const std::size_t to = i + kEscapedBytes / 2;
    return "in bytes (\\xHH for all but printable ASCII) the file has " + escaped_bytes(file_line, from, to) +
           " where " + std::string(old_name) + " has " + escaped_bytes(needle_line, from, to);
}

// Where the first difference (byte i, column `column`) involves a byte that is not UTF-8 or a
// U+FFFD standing for one: which byte, and what old_string needs there. Empty otherwise.
std::string invalid_byte_words(std::string_view file_line, std::string_view needle_line, std::size_t i,
                               std::size_t column, std::string_view old_name) {
    constexpr std::string_view fffd = "\xEF\xBF\xBD";
    // Back to the start of the character in both lines (the common prefix may end inside one).
    std::size_t at = i;
    at = utf8_floor(needle_line, at);
    const std::vector<std::size_t> invalid = invalid_utf8_bytes(file_line);
    const bool file_invalid = std::binary_search(invalid.begin(), invalid.end(), i);
    const bool needle_fffd = needle_line.substr(at).starts_with(fffd);
    const std::string col = " at column " + std::to_string(column);
    auto next_character = [](std::string_view line, std::size_t from) { return utf8_ceil(line, from + 1, 3); };
    if (file_invalid) {
        return "the file has the byte " + escaped_bytes(file_line.substr(i, 1), 0, 1) + col +
               ", which is not UTF-8 (read shows it as U+FFFD), where " + std::string(old_name) + " has " +
               (at < needle_line.size()
                    ? escaped_bytes(needle_line.substr(at, next_character(needle_line, at) - at), 0, 4)
                    : std::string("nothing")) +
               ": write one U+FFFD in " + std::string(old_name) + " for each such byte and the byte is kept";
    }
    if (needle_fffd) {
        const std::size_t file_at = std::min(at, file_line.size());
        return std::string(old_name) + " has U+FFFD" + col +
               ", which matches only a byte that is not UTF-8, but the file has " +
               (file_at < file_line.size()
                    ? escaped_bytes(file_line.substr(file_at, next_character(file_line, file_at) - file_at), 0, 4) +
                          " (valid UTF-8) there: copy that character instead of U+FFFD"
                    : std::string("the end of the line there"));
    }
    return {};
}

std::string describe_typography(std::string_view s, std::string_view where) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (static_cast<unsigned char>(s[i]) < 0xC2) continue;
        const Typographic t = typographic_at(s, i);
        if (t.size) {
            return std::string(where) + " has " + std::string(s.substr(i, t.size)) + " (" +
                   code_point_label(t.code_point) + " " + std::string(t.name) + ")";
        }
    }
    return {};
}

}  // namespace

std::string describe_difference(std::string_view file_line, std::string_view needle_line, std::string_view old_name) {
    if (rtrim_blanks(file_line) == rtrim_blanks(needle_line)) return "trailing whitespace differs";
    const std::string_view a = trim_blanks(file_line);
    const std::string_view b = trim_blanks(needle_line);
    if (a == b) {
        const std::string_view file_tail = file_line.substr(rtrim_blanks(file_line).size());
        const std::string_view needle_tail = needle_line.substr(rtrim_blanks(needle_line).size());
        return file_tail == needle_tail ? "indentation differs" : "indentation and trailing whitespace differ";
    }
    const std::string in_file = describe_typography(file_line, "the file");
    const std::string in_needle = describe_typography(needle_line, old_name);
    if (fold_typography(a) == fold_typography(b)) {
        std::string s = "typographic characters differ: ";
        if (!in_file.empty()) {
            s += in_file;
            if (!in_needle.empty()) s += " and " + in_needle;
        } else {
            s += in_needle;
        }
        return s;
    }
    std::size_t i = 0;
    while (i < file_line.size() && i < needle_line.size() && file_line[i] == needle_line[i]) ++i;
    const std::size_t column = 1 + utf8_length(file_line.substr(0, i));
    std::string s = "text differs from column " + std::to_string(column);
    if (!in_file.empty()) s += "; " + in_file;
    if (!in_needle.empty()) s += "; " + in_needle;
    // Where a byte that is not printable ASCII differs (bytes shown as U+FFFD, invisible or
    // look-alike characters), the lines may look the same: their bytes say how they differ.
    const auto unclear = [](std::string_view line, std::size_t at) {
        if (at >= line.size()) return false;
        const auto c = static_cast<unsigned char>(line[at]);
        return c >= 0x7F || (c < 0x20 && c != '\t');
    };
    if (const std::string bytes = invalid_byte_words(file_line, needle_line, i, column, old_name); !bytes.empty())
        return s + "; " + bytes;
    if (in_file.empty() && in_needle.empty() && (unclear(file_line, i) || unclear(needle_line, i)))
        s += "; " + differing_bytes(file_line, needle_line, old_name);
    return s;
}

}  // namespace text
