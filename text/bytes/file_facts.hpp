// What a file's bytes say about themselves: BOM, line-ending style, final newline, UTF-8 validity,
// binary-ness, and where its lines start. Pure (bytes in, facts out) so `read` and the editing
// engine agree on every one of these answers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace text {

enum class Bom { none, utf8, utf16le, utf16be, utf32le, utf32be };
enum class LineEnding { none, lf, crlf, cr, mixed };

struct LineEndingCounts {
    std::size_t lf = 0;
    std::size_t crlf = 0;
    std::size_t cr = 0;
};

struct FileFacts {
    Bom bom = Bom::none;
    std::size_t bom_size = 0;  // bytes of the BOM at the start of the file
    LineEnding line_ending = LineEnding::none;
    LineEndingCounts counts;
    bool final_newline = false;
    bool binary = false;  // contains a NUL byte (outside a UTF-16/32 BOM'd file)
};

Bom detect_bom(std::string_view bytes, std::size_t* size = nullptr);
// BOM, line endings, final newline, binary. UTF-8 validity is asked separately (is_valid_utf8):
// only what shows text needs it, and it is a whole pass over the file.
FileFacts analyze(std::string_view bytes);

// "lf", "crlf", "cr", "mixed", "none"
const char* to_string(LineEnding e);
// "utf-8", "utf-16le", ... ; "none" for Bom::none
const char* to_string(Bom b);

// The terminator new lines should take in this file: the dominant style, LF when there is none.
std::string_view dominant_newline(const FileFacts& facts);

// True when `bytes` is valid UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

// A valid-UTF-8 copy of `bytes`: every byte that is not part of a valid sequence becomes U+FFFD.
// Used only for display; files are never rewritten with it.
std::string to_valid_utf8(std::string_view bytes);

// The offsets of the bytes that are not part of a valid UTF-8 sequence, in order: the bytes
// to_valid_utf8 (and so `read`) shows as one U+FFFD each.
std::vector<std::size_t> invalid_utf8_bytes(std::string_view bytes);

// A line of the file: [begin, end) excludes the terminator; terminator_size is 0, 1 or 2.
struct LineSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::uint8_t terminator_size = 0;
};

// Splits `bytes` (BOM excluded by the caller) into lines at LF, CRLF and lone CR. A final
// terminator does not start an extra empty line. An empty input has zero lines.
std::vector<LineSpan> split_lines(std::string_view bytes);

// Visits the lines of `bytes` without building a table; stops when `visit` returns false.
template <class Visit>
void for_each_line(std::string_view bytes, Visit&& visit) {
    std::size_t begin = 0;
    const std::size_t n = bytes.size();
    while (begin < n) {
        std::size_t i = begin;
        while (i < n && bytes[i] != '\n' && bytes[i] != '\r') ++i;
        LineSpan span{begin, i, 0};
        if (i < n) span.terminator_size = (bytes[i] == '\r' && i + 1 < n && bytes[i + 1] == '\n') ? 2 : 1;
        if (!visit(span)) return;
        begin = i + span.terminator_size;
    }
}

}  // namespace text
