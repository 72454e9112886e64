// Producing a file's new bytes from its old bytes: literal replacement of byte ranges, whole-line
// insertion, whole-content adaptation. Everything that writes bytes keeps the file's style.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "text/bytes/file_facts.hpp"
#include "base/result.hpp"

namespace text {

// Bytes [begin, end) of the file become `text` (literal: no regex, no `$`).
struct Replacement {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string text;
};

struct SpliceError {
    std::string message;
};

// `text` with every newline (LF, CRLF or lone CR) written as `newline`.
std::string with_newlines(std::string_view text, std::string_view newline);

// The new bytes: each range replaced by its text, the text's newlines written in the file's
// dominant style (dominant_newline). Ranges must be sorted, non-overlapping and inside the file.
// Bytes outside the ranges are kept as they are (BOM, other newlines, invalid UTF-8, final newline).
base::Result<std::string, SpliceError> splice(std::string_view bytes, std::span<const Replacement> replacements);
// The same with the newline given (for callers that already know it).
base::Result<std::string, SpliceError> splice(std::string_view bytes, std::span<const Replacement> replacements,
                                              std::string_view newline);

struct Inserted {
    std::size_t at = 0;  // the new file: `text` put at this offset of the old one
    std::string text;
    std::size_t first_line = 0;  // 1-based line number of the first inserted line
    std::size_t line_count = 0;  // lines inserted
};

// Inserts `text` as whole lines: line 0 = before line 1, N = after line N, -1 = at the end.
// `text` is split at its newlines (one final newline is not an extra empty line; an empty text is
// one empty line) and written in the file's newline style. At the end of a file without a final
// newline, a newline is added before the text and the file stays without a final newline.
base::Result<Inserted, SpliceError> insert_lines(std::string_view bytes, long long line, std::string_view text);

struct AdaptedContent {
    std::string bytes;
    bool kept_bom = false;                      // the existing UTF-8 BOM was put before the new content
    bool kept_line_ending = false;              // the new content's LF newlines were written as the file's
    LineEnding line_ending = LineEnding::none;  // the style kept, when kept_line_ending
    std::string note;                           // e.g. "kept the file's CRLF line endings and UTF-8 BOM"; or ""
};

// `write` over an existing file: when the file has a UTF-8 BOM and the content has none, the BOM
// is kept; when the file's dominant newline is CRLF or CR and the content's newlines are all LF,
// they are written in the file's style. Anything else is taken as the content says.
AdaptedContent adapt_whole_content(std::string_view existing_bytes, std::string_view new_content);

}  // namespace text
