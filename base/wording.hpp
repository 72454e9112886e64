// How cut text, sizes and counts read in messages, in one place for every layer: a cut never
// splits a UTF-8 character, a size in MiB has one decimal, a count carries its noun ("1 file",
// "2 files") and large numbers their thousands separators ("31,596").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace base {

// The length of the longest prefix of `s` of at most `max` bytes that ends on a UTF-8 character
// boundary.
inline std::size_t utf8_prefix_length(std::string_view s, std::size_t max) {
    if (max >= s.size()) return s.size();
    while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80) --max;
    return max;
}

// `s` itself when it has at most `max` bytes; else its longest whole-character prefix that fits,
// then "…".
inline std::string cut_utf8(std::string_view s, std::size_t max) {
    if (s.size() <= max) return std::string(s);
    return std::string(s.substr(0, utf8_prefix_length(s, max))) + "\u2026";
}

// "1.5 MiB": bytes in mebibytes, rounded to tenths.
inline std::string mebibytes(std::uint64_t bytes) {
    const std::uint64_t tenths = (bytes * 10 + (1u << 19)) >> 20;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

// "31,596".
inline std::string with_commas(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (std::size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
    return digits;
}

// "1 file", "2 files", "1,024 files" (`many`: the plural, when it is not `one` + "s").
inline std::string count_of(std::uint64_t n, std::string_view one, std::string_view many = {}) {
    return with_commas(n) + " " +
           (n == 1         ? std::string(one)
            : many.empty() ? std::string(one) + "s"
                           : std::string(many));
}

}  // namespace base
