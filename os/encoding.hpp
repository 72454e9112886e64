// A file's encoding, decided and converted: the model reads and writes UTF-8, the file keeps its
// own encoding, byte-exact. Its own file because conversion needs the platform (iconv, Win32).
//
// THE DECISION (docs/encodings.md has the measurements behind it)
// - Order: a BOM (UTF-8, UTF-16 LE/BE; UTF-32 is named but refused), then the file's own
//   declaration (PEP 263 `coding:` in the first two lines, `<?xml encoding?>`, `<meta charset>`:
//   what the file's own tools read it as), then `.editorconfig`'s `charset`, then valid UTF-8,
//   then detection from the bytes, else the raw bytes as today (`unknown-8bit`). A declared or
//   detected encoding is taken only when the bytes round-trip through it exactly (decode, encode,
//   compare); otherwise the next step is tried, and the decision's note says why it was passed over.
// - Detection: Debian's libuchardet. Debian 12 ships 0.0.7, which has no confidence API
//   (uchardet_get_confidence came in 0.0.8), so the confidence is ours, measured: uchardet's answer
//   is taken only with at least 16 bytes at 0x80 or above (below that it named the wrong encoding,
//   or none, for 3 in 4 short GBK samples: `名字 = "张三"` alone comes back empty), only when it
//   names an encoding of text::find_encoding's table, and only when the bytes round-trip. The
//   confidence reported is the share its answer was right on real samples with that many non-ASCII
//   bytes: 0.90 for 16-31, 0.96 for 32 or more. GB18030 is reported as gbk when the bytes are GBK
//   (new text then cannot silently take GB18030's four-byte forms); ISO-8859-1 with bytes in
//   0x80-0x9F (C1 controls in Latin-1, curly quotes and € in cp1252) as windows-1252.
// - Conversion: POSIX iconv (glibc on Linux; /usr/lib/libiconv.2.dylib on macOS) behind
//   os/encoding_conversion.hpp; on Windows, MultiByteToWideChar/WideCharToMultiByte with the code
//   pages of text::find_encoding's table (936, 932, 1252, 28591; UTF-16 by hand, since 1200/1201
//   are not accepted there). Single-byte encodings go through a 256-entry table made once from the
//   converter, so deciding 50 MB of cp1252 is one pass (measured 1.0-1.2x reading it as UTF-8).
// - PLATFORMS: Linux links Debian's libuchardet and glibc's iconv; Windows and macOS compile
//   uchardet from Debian's source package (cmake/UchardetSource.cmake); Windows converts with its
//   code pages (os/encoding_conversion_windows.cpp), macOS with the system's libiconv (linked
//   through cmake/libiconv.tbd). docs/encodings.md says what each platform does.
// - Line endings and BOMs are the callers' as today: decode and encode convert text, never
//   newlines; the BOM is not part of what they convert.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace os {

// What the caller knows besides the bytes: `.editorconfig`'s `charset` for the file ("" when none),
// and an encoding the model named for it (read's `encoding`, remembered for the session: "" when
// none), which comes right after a BOM when the bytes fit it.
struct EncodingHints {
    std::string editorconfig_charset;
    std::string requested;
};

enum class EncodingSource { bom, requested, declaration, editorconfig, utf8, detected, fallback };
// "bom", "requested", "declaration", "editorconfig", "utf-8", "detected", "fallback"
const char* to_string(EncodingSource source);

// The name of the raw-bytes fallback, as `read` reports it today.
inline constexpr std::string_view unknown_8bit = "unknown-8bit";

struct EncodingDecision {
    std::string encoding;  // canonical (text::EncodingInfo::name), or unknown_8bit, or "utf-32le"/"utf-32be"
    EncodingSource source = EncodingSource::fallback;
    double confidence = 1.0;   // below 1 only when detected
    bool lossless = false;     // decoding then encoding gives the bytes back exactly
    std::size_t bom_size = 0;  // bytes of BOM at the start: not part of `text`
    std::string text;          // the content (BOM excluded) as UTF-8 when lossless and not UTF-8
                               // already, so the caller decodes once; empty otherwise
    std::string note;          // why a declared or detected encoding was passed over, or ""
    // "utf-8 (bom)", "windows-1252 (declaration: coding: line 1)", "gbk (detected, 0.96)" ...
    std::string how;
};

// Decides the encoding of a whole file's bytes (BOM included), as the header's order says.
EncodingDecision decide_encoding(std::string_view bytes, const EncodingHints& hints = {});

// Why a conversion was refused: the first character (decode: bytes) that cannot be converted.
struct ConversionError {
    std::size_t offset = 0;  // in the input
    std::size_t line = 0;    // 1-based line of that character
    std::string character;   // encode: the character itself ("€"); decode: its bytes as hex ("0x81")
    std::string message;     // "line 3: '€' (U+20AC) cannot be written in iso-8859-1"
};

// The text of `bytes` (BOM excluded) in `encoding`, as UTF-8; refused at the first byte sequence
// that is not a character of that encoding.
base::Result<std::string, ConversionError> decode(std::string_view bytes, std::string_view encoding);
// `utf8` in `encoding` (no BOM added); refused at the first character the encoding cannot hold,
// named with its line. UTF-8 input that is not valid UTF-8 is refused the same way.
base::Result<std::string, ConversionError> encode(std::string_view utf8, std::string_view encoding);

}  // namespace os
