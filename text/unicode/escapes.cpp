// The escapes of escapes.hpp: a hex digit table for bytes, printf for code points.
#include "text/unicode/escapes.hpp"

#include <cstdio>

namespace text {

std::string escaped_bytes(std::string_view s, std::size_t from, std::size_t to) {
    static const char* hex = "0123456789ABCDEF";
    std::string out = from > 0 ? "\u2026" : "";
    for (std::size_t i = from; i < to && i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        }
    }
    if (to < s.size()) out += "\u2026";
    return out;
}

std::string code_point_label(char32_t cp) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
    return buf;
}

}  // namespace text
