// What a file's bytes and its project say about its encoding, before any conversion: the
// encodings the server reads and writes (one table: canonical name, iconv name, Windows code
// page), the labels people write for them, and the declarations files carry (PEP 263 `coding:`,
// `<?xml encoding?>`, `<meta charset>`). Pure, so os/encoding and its tests agree on every name.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace text {

// One encoding the server converts. Names are lower-case, as `read` reports them.
struct EncodingInfo {
    std::string_view name;        // canonical: "utf-8", "gbk", "shift_jis", "windows-1252", ...
    std::string_view iconv_name;  // what glibc's and macOS's iconv call it
    unsigned windows_code_page;   // what MultiByteToWideChar calls it
    bool single_byte;             // converted byte by byte: a table of 256 decides and decodes it
};

// The encoding a label names (case, '-' and '_' ignored: "Latin-1", "latin1", "ISO_8859-1",
// "cp1252", "Windows-1252", "SJIS", "gb2312" ...), or nullopt for one the server does not convert
// (UTF-32, EBCDIC, an unknown name).
std::optional<EncodingInfo> find_encoding(std::string_view label);

// The encoding `.editorconfig`'s `charset` names (latin1, utf-8, utf-8-bom, utf-16be, utf-16le);
// nullopt for any other value (the EditorConfig spec defines only these).
std::optional<EncodingInfo> editorconfig_charset(std::string_view value);

// A declaration found in a file's own bytes: the label as written and where it was.
struct Declaration {
    std::string label;  // as written: "latin-1", "windows-1252"
    std::string where;  // "coding: line 1", "<?xml encoding?>", "<meta charset>"
};

// The encoding a file declares for itself, read from its ASCII-compatible bytes (BOM excluded by
// the caller): a `coding[:=] X` in a comment of the first two lines (PEP 263; Emacs' `-*- coding:
// X -*-`, Vim's `fileencoding=X`, Ruby's `encoding: X`), the `encoding` of an `<?xml ...?>`
// declaration at the start, or a `<meta charset>` (or http-equiv content `charset=`) in the first
// 1024 bytes (the HTML prescan's window). nullopt when the file declares nothing.
std::optional<Declaration> find_declaration(std::string_view bytes);

// Bytes of `bytes` at 0x80 or above: how much text a detector has to go on.
std::size_t count_non_ascii(std::string_view bytes);

// The 1-based line of `offset` in UTF-8 (or any ASCII-compatible) text: lines end at LF, CRLF and
// a lone CR, as text::split_lines counts them.
std::size_t line_of_offset(std::string_view text, std::size_t offset);

}  // namespace text
