// Charset detection from bytes alone: Debian's libuchardet (0.0.7: a name, no confidence; the
// confidence is os/encoding.cpp's, measured). Its own file so the detector can change alone.
#pragma once

#include <string>
#include <string_view>

namespace os {

// uchardet's name for the charset of `bytes` ("GB18030", "WINDOWS-1252", "SHIFT_JIS" ...), or ""
// when it has none. Reads at most the first 1 MiB.
std::string detect_charset(std::string_view bytes);

}  // namespace os
