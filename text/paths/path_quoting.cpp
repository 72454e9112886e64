// git-style path quoting for every path the server lists or shows (see path_quoting.hpp).
#include "text/paths/path_quoting.hpp"

#include <cstdint>

namespace text {

namespace {

// The length of the valid UTF-8 sequence at s[i] (no overlongs, no surrogates, at most
// U+10FFFF), and its code point in *cp; 0 when the byte does not start one.
std::size_t sequence_at(std::string_view s, std::size_t i, std::uint32_t* cp) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    std::size_t n = 0;
    std::uint32_t v = 0, min = 0;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, v = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, v = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, v = c & 0x07, min = 0x10000;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xC0) != 0x80) return 0;
        v = (v << 6) | (b(k) & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return n;
}

// Whether the code point must not be shown as it is.
bool shown_escaped(std::uint32_t cp) {
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == '"' ||
           cp == '\\';
}

void octal(std::string& out, unsigned char c) {
    out += '\\';
    out += static_cast<char>('0' + ((c >> 6) & 7));
    out += static_cast<char>('0' + ((c >> 3) & 7));
    out += static_cast<char>('0' + (c & 7));
}

}  // namespace

bool needs_quoting(std::string_view path) {
    for (std::size_t i = 0; i < path.size();) {
        const auto c = static_cast<unsigned char>(path[i]);
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {  // the common case: printable ASCII
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        const std::size_t n = sequence_at(path, i, &cp);
        if (n == 0 || shown_escaped(cp)) return true;
        i += n;
    }
    return false;
}

std::string quoted_path(std::string_view path, bool always) {
    if (!always && !needs_quoting(path)) return std::string(path);
    std::string out;
    out.reserve(path.size() + 8);
    out += '"';
    for (std::size_t i = 0; i < path.size();) {
        std::uint32_t cp = 0;
        const std::size_t n = sequence_at(path, i, &cp);
        if (n == 0) {  // a byte that is not UTF-8
            octal(out, static_cast<unsigned char>(path[i]));
            ++i;
            continue;
        }
        if (!shown_escaped(cp)) {
            out.append(path.substr(i, n));
        } else {
            switch (cp) {
                case '\a': out += "\\a"; break;
                case '\b': out += "\\b"; break;
                case '\t': out += "\\t"; break;
                case '\n': out += "\\n"; break;
                case '\v': out += "\\v"; break;
                case '\f': out += "\\f"; break;
                case '\r': out += "\\r"; break;
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                default:
                    for (std::size_t k = 0; k < n; ++k) octal(out, static_cast<unsigned char>(path[i + k]));
            }
        }
        i += n;
    }
    out += '"';
    return out;
}

// A git C-quoted name ("a/b\tc") from s[*at] (at the opening quote); advances past the closing one.
std::optional<std::string> unquote(std::string_view s, std::size_t* at) {
    std::string out;
    std::size_t i = *at + 1;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '"') {
            *at = i + 1;
            return out;
        }
        if (c != '\\') {
            out += c;
            ++i;
            continue;
        }
        if (i + 1 >= s.size()) return std::nullopt;
        const char e = s[i + 1];
        i += 2;
        switch (e) {
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'v': out += '\v'; break;
            case '\\': out += '\\'; break;
            case '"': out += '"'; break;
            default:
                if (e >= '0' && e <= '7') {
                    unsigned value = static_cast<unsigned>(e - '0');
                    for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i) {
                        value = value * 8 + static_cast<unsigned>(s[i] - '0');
                    }
                    out += static_cast<char>(value & 0xFF);
                } else {
                    out += e;
                }
        }
    }
    return std::nullopt;
}

std::optional<std::string> unquoted_path(std::string_view path) {
    if (path.size() < 2 || path.front() != '"' || path.back() != '"') return std::nullopt;
    std::size_t at = 0;
    auto name = unquote(path, &at);
    if (!name || at != path.size() || name->empty()) return std::nullopt;
    return name;
}

}  // namespace text
