// The few Unicode facts the matcher's Unicode tier needs: decoding one character, whether it may
// join the one before it (combining marks, Hangul vowels and finals), whether it has a
// compatibility decomposition, and a cluster's NFKC form. From utf8proc on Linux and macOS
// (unicode_normalization_utf8proc.cpp); from Windows' own NormalizeString and character types on
// Windows (unicode_normalization_windows.cpp), where Debian has no utf8proc build.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace text::unicode {

// The character at s[pos] (pos < end) in *cp and its size in bytes; 0 when s[pos] does not start
// a valid UTF-8 sequence.
std::size_t decode(std::string_view s, std::size_t pos, std::size_t end, char32_t* cp);

// A code point that NFKC may join to the character before it.
bool joins_previous(char32_t cp);

// Does NFKC change this code point on its own (it has a canonical or compatibility decomposition)?
bool has_decomposition(char32_t cp);

// The most code points a cluster handed to nfkc has: folding (unicode_fold.cpp) cuts longer runs
// of marks there, and nfkc sizes its buffer from it.
constexpr std::size_t max_cluster_code_points = 32;

// The NFKC form of `cluster` (a character and the marks after it); nullopt when it cannot be had.
std::optional<std::string> nfkc(std::string_view cluster);

}  // namespace text::unicode
