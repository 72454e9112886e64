// A file's encoding as the tools carry it: the model reads and writes UTF-8, the file keeps its
// own encoding. A file in another encoding (GBK, Shift_JIS, cp1252, Latin-1, UTF-16 with a BOM)
// is "transcoded": planners, diffs and the elision guard see its text as UTF-8, and what they
// make is encoded back (its BOM put back in front) before anything else sees it. Everything that
// deals with the disk (re-checks, writes, fingerprints, the history and undo, the journal) keeps
// the raw bytes, so the bytes outside a change stay exactly as they were (decide_encoding took the
// encoding only because the file round-trips through it).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "os/encoding.hpp"

namespace tools {

struct FileEncoding {
    std::string name = "utf-8";  // canonical (text::find_encoding), or os::unknown_8bit
    os::EncodingSource source = os::EncodingSource::utf8;
    double confidence = 1.0;
    std::string how;   // "gbk (detected, confidence 0.96)", as read reports it
    std::string note;  // why a declared or detected encoding was passed over, or ""
    std::string bom;   // the BOM's raw bytes of a transcoded file (put back in front when written)
    bool transcoded = false;

    // The UTF-8 text of `raw`, bytes of a file in this encoding (BOM included when it has one);
    // nullopt when the encoding is UTF-8 or raw bytes (the bytes are what the model sees) or when
    // the bytes do not decode.
    std::optional<std::string> text_of(std::string_view raw) const;
    // The bytes to write for `text` (UTF-8): the BOM and the text in this encoding. Refused, with
    // the message for the model, at the first character this encoding cannot hold. `display`:
    // the path as messages name it.
    base::Result<std::string> bytes_of(std::string_view text, const std::string& display) const;
};

// The encoding decision of a file's bytes, as the tools carry it (transcoded when the bytes
// round-trip through an encoding other than UTF-8).
FileEncoding file_encoding(os::EncodingDecision& decision, std::string_view raw, std::string& text);

}  // namespace tools
