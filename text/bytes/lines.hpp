// The small string helpers every part of the engine uses on lines: which bytes are blanks, trims,
// whole UTF-8 characters (backing off a continuation byte), and walking or indexing the lines of
// an LF text. One definition each, so that every module agrees on what a blank or a line is.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace text {

// Space or tab: the bytes of indentation.
inline bool is_indent_byte(char c) { return c == ' ' || c == '\t'; }
// The bytes read as blanks at the end of a line: space, tab, form feed, vertical tab.
inline bool is_blank_byte(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
// Neither a blank nor a newline byte.
inline bool is_visible_byte(char c) { return !is_blank_byte(c) && c != '\n' && c != '\r'; }
inline bool has_visible_text(std::string_view s) {
    for (const char c : s) {
        if (is_visible_byte(c)) return true;
    }
    return false;
}

// The leading spaces and tabs of `line`, and the line without them.
inline std::string_view indentation(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_indent_byte(line[i])) ++i;
    return line.substr(0, i);
}
inline std::string_view ltrim_indent(std::string_view line) { return line.substr(indentation(line).size()); }
// `line` without trailing spaces and tabs.
inline std::string_view trim_right(std::string_view line) {
    while (!line.empty() && is_indent_byte(line.back())) line.remove_suffix(1);
    return line;
}
// `line` without leading and trailing spaces and tabs.
inline std::string_view trim_both(std::string_view line) { return ltrim_indent(trim_right(line)); }

// `s` without trailing (rtrim) or leading and trailing (trim) blank bytes.
inline std::string_view rtrim_blanks(std::string_view s) {
    while (!s.empty() && is_blank_byte(s.back())) s.remove_suffix(1);
    return s;
}
inline std::string_view trim_blanks(std::string_view s) {
    s = rtrim_blanks(s);
    while (!s.empty() && is_blank_byte(s.front())) s.remove_prefix(1);
    return s;
}

// A UTF-8 continuation byte (10xxxxxx): not the start of a character.
inline bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

constexpr std::size_t kAnySteps = std::numeric_limits<std::size_t>::max();

// `at` moved back over continuation bytes to the start of its character (a cut there splits no
// character), not below `lower` and at most `max_steps` bytes. An offset at or past the end stays.
inline std::size_t utf8_floor(std::string_view s, std::size_t at, std::size_t lower = 0,
                              std::size_t max_steps = kAnySteps) {
    for (std::size_t k = 0; k < max_steps && at > lower && at < s.size() && is_utf8_continuation(s[at]); ++k) --at;
    return at;
}
// `at` moved forward over continuation bytes, at most `max_steps` bytes.
inline std::size_t utf8_ceil(std::string_view s, std::size_t at, std::size_t max_steps = kAnySteps) {
    for (std::size_t k = 0; k < max_steps && at < s.size() && is_utf8_continuation(s[at]); ++k) ++at;
    return at;
}
// How many characters start in `s` (its bytes that are not continuation bytes).
inline std::size_t utf8_length(std::string_view s) {
    std::size_t n = 0;
    for (const char c : s) n += is_utf8_continuation(c) ? 0 : 1;
    return n;
}

// Reads the lines of an LF text forward from an offset, without copying. A final "\n" does not
// start an extra empty line.
class LineCursor {
public:
    explicit LineCursor(std::string_view text, std::size_t from = 0) : text_(text), pos_(from) {}

    // The next line without its "\n"; false when there is none left.
    bool next(std::string_view& line) {
        if (pos_ >= text_.size()) return false;
        const std::size_t e = text_.find('\n', pos_);
        newline_ = e != std::string_view::npos;
        const std::size_t end = newline_ ? e : text_.size();
        line = text_.substr(pos_, end - pos_);
        pos_ = newline_ ? e + 1 : text_.size();
        return true;
    }
    // The line next() read is followed by a "\n".
    bool newline() const { return newline_; }
    // Where the next line starts (the size of the text at the end).
    std::size_t position() const { return pos_; }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    bool newline_ = false;
};

// The lines of an LF text (a needle, an old_string) without their "\n"; one final newline is not
// an extra empty line: it is reported in ends_with_newline.
struct LfLines {
    std::vector<std::string_view> lines;
    bool ends_with_newline = false;
};
LfLines split_lf_lines(std::string_view s);

// The lines of an LF text by index: line i (0-based) without its "\n". A final "\n" does not start
// an extra empty line. Built once, each line found in constant time.
class LineTable {
public:
    explicit LineTable(std::string_view text);

    std::size_t size() const { return starts_.size(); }
    std::string_view text() const { return text_; }
    std::size_t begin(std::size_t i) const { return starts_[i]; }
    std::string_view line(std::size_t i) const {
        const std::size_t b = starts_[i];
        const std::size_t e = i + 1 < starts_.size() ? starts_[i + 1] - 1 : text_.find('\n', b);
        return text_.substr(b, (e == std::string_view::npos ? text_.size() : e) - b);
    }
    // Where line i ends (its "\n", or the end of the text).
    std::size_t end(std::size_t i) const { return begin(i) + line(i).size(); }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

}  // namespace text
