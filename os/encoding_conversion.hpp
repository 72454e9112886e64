// The platform's converter between an encoding of text::EncodingInfo's table and UTF-8: iconv on
// POSIX (encoding_conversion_posix.cpp), Windows' code pages on Windows (to write). Internal to
// os/encoding.cpp, which adds the round trip, the lines and the messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "text/bytes/encoding_labels.hpp"

namespace os::conversion {

// A refused conversion: the offset in the input of the first byte sequence (to_utf8) or
// character (from_utf8) that has no counterpart.
struct Stop {
    std::size_t offset = 0;
};

// `bytes` in `from` as UTF-8. Never replaces: a byte sequence that is not a character stops it.
base::Result<std::string, Stop> to_utf8(std::string_view bytes, const text::EncodingInfo& from);
// Valid UTF-8 `utf8` in `to`. Never transliterates: a character `to` cannot hold stops it.
base::Result<std::string, Stop> from_utf8(std::string_view utf8, const text::EncodingInfo& to);

}  // namespace os::conversion
