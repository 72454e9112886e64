// Encoding conversion on Windows: the code pages of text::EncodingInfo through
// MultiByteToWideChar/WideCharToMultiByte, never best-fit, UTF-16 (1200/1201, which those functions
// do not take) by hand. Not built yet: CMakeLists.txt leaves os/encoding*.cpp out of the Windows
// build until uchardet is compiled there (docs/encodings.md); checked under Wine with the unit tests.
#include "os/encoding_conversion.hpp"

#include <windows.h>

#include <cstdint>
#include <vector>

namespace os::conversion {

namespace {

// UTF-8 of code point `cp` appended to `out`.
void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// UTF-16 code units as UTF-8; `unit_offset(i)` maps unit i to the input offset a refusal names.
template <class UnitOffset>
base::Result<std::string, Stop> units_to_utf8(const std::vector<wchar_t>& units, UnitOffset unit_offset) {
    std::string out;
    out.reserve(units.size() * 2);
    for (std::size_t i = 0; i < units.size(); ++i) {
        const std::uint32_t u = static_cast<std::uint16_t>(units[i]);
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size()) {
            const std::uint32_t low = static_cast<std::uint16_t>(units[i + 1]);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
                ++i;
                continue;
            }
        }
        if (u >= 0xD800 && u <= 0xDFFF) return base::fail(Stop{unit_offset(i)});  // unpaired surrogate
        append_utf8(out, u);
    }
    return out;
}

// Valid UTF-8 as UTF-16 code units, with the UTF-8 offset each code point starts at.
void utf8_to_units(std::string_view utf8, std::vector<wchar_t>& units, std::vector<std::size_t>& starts) {
    for (std::size_t i = 0; i < utf8.size();) {
        const auto b = [&](std::size_t k) {
            return static_cast<std::uint32_t>(static_cast<unsigned char>(utf8[i + k]));
        };
        std::uint32_t cp = b(0);
        std::size_t len = 1;
        if (cp >= 0xF0 && i + 3 < utf8.size()) {
            cp = ((cp & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
            len = 4;
        } else if (cp >= 0xE0 && i + 2 < utf8.size()) {
            cp = ((cp & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
            len = 3;
        } else if (cp >= 0xC0 && i + 1 < utf8.size()) {
            cp = ((cp & 0x1F) << 6) | (b(1) & 0x3F);
            len = 2;
        }
        starts.push_back(i);
        if (cp >= 0x10000) {
            units.push_back(static_cast<wchar_t>(0xD800 + ((cp - 0x10000) >> 10)));
            units.push_back(static_cast<wchar_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
            starts.push_back(i);
        } else {
            units.push_back(static_cast<wchar_t>(cp));
        }
        i += len;
    }
}

bool is_utf16(unsigned cp) { return cp == 1200 || cp == 1201; }

// MultiByteToWideChar, refusing invalid input; false when `bytes` is not text of `cp`.
bool to_units(unsigned cp, std::string_view bytes, std::vector<wchar_t>& units) {
    units.clear();
    if (bytes.empty()) return true;
    const int size = static_cast<int>(bytes.size());
    const int n = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, bytes.data(), size, nullptr, 0);
    if (n <= 0) return false;
    units.resize(static_cast<std::size_t>(n));
    return MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, bytes.data(), size, units.data(), n) == n;
}

// WideCharToMultiByte without best fit; false when a unit has no character in `cp`. GB18030 holds
// every character, and Windows takes no best-fit flag or default-char report for it.
bool from_units(unsigned cp, const wchar_t* units, std::size_t count, std::string& out) {
    out.clear();
    if (count == 0) return true;
    const bool all_of_unicode = cp == 54936;
    const DWORD flags = all_of_unicode ? WC_ERR_INVALID_CHARS : WC_NO_BEST_FIT_CHARS;
    BOOL used_default = FALSE;
    BOOL* report = all_of_unicode ? nullptr : &used_default;
    const int size = static_cast<int>(count);
    const int n = WideCharToMultiByte(cp, flags, units, size, nullptr, 0, nullptr, report);
    if (n <= 0 || used_default) return false;
    out.resize(static_cast<std::size_t>(n));
    return WideCharToMultiByte(cp, flags, units, size, out.data(), n, nullptr, report) == n && !used_default;
}

}  // namespace

base::Result<std::string, Stop> to_utf8(std::string_view bytes, const text::EncodingInfo& from) {
    const unsigned cp = from.windows_code_page;
    std::vector<wchar_t> units;
    if (is_utf16(cp)) {
        const bool big_endian = cp == 1201;
        for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
            const auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
            units.push_back(static_cast<wchar_t>(big_endian ? (a << 8 | b) : (b << 8 | a)));
        }
        auto out = units_to_utf8(units, [](std::size_t i) { return 2 * i; });
        if (out && bytes.size() % 2 != 0) return base::fail(Stop{bytes.size() - 1});  // half a code unit at the end
        return out;
    }
    if (to_units(cp, bytes, units)) return units_to_utf8(units, [](std::size_t) { return std::size_t{0}; });
    // Invalid somewhere: walk the characters (1 to 4 bytes: the shortest that converts) to the first that is not one.
    std::vector<wchar_t> one;
    for (std::size_t i = 0; i < bytes.size();) {
        std::size_t len = 1;
        while (len <= 4 && i + len <= bytes.size() && !to_units(cp, bytes.substr(i, len), one)) ++len;
        if (len > 4 || i + len > bytes.size()) return base::fail(Stop{i});
        i += len;
    }
    return base::fail(Stop{0});  // the whole failed but no character did: name the start
}

base::Result<std::string, Stop> from_utf8(std::string_view utf8, const text::EncodingInfo& to) {
    const unsigned cp = to.windows_code_page;
    std::vector<wchar_t> units;
    std::vector<std::size_t> starts;
    utf8_to_units(utf8, units, starts);
    std::string out;
    if (is_utf16(cp)) {
        out.reserve(units.size() * 2);
        for (wchar_t w : units) {
            const auto u = static_cast<std::uint16_t>(w);
            const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
            out += cp == 1201 ? hi : lo;
            out += cp == 1201 ? lo : hi;
        }
        return out;
    }
    if (from_units(cp, units.data(), units.size(), out)) return out;
    // Some character has no counterpart: find the first, one code point (one or two units) at a time.
    std::string piece;
    for (std::size_t i = 0; i < units.size();) {
        const std::size_t count = (i + 1 < units.size() && starts[i + 1] == starts[i]) ? 2 : 1;
        if (!from_units(cp, units.data() + i, count, piece)) return base::fail(Stop{starts[i]});
        i += count;
    }
    return base::fail(Stop{0});
}

}  // namespace os::conversion
