// Typographic characters that agents and files disagree about (curly quotes, dashes, special
// spaces, the ellipsis) and their ASCII forms. Its own file: the matcher folds them, messages name them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace text {

struct Typographic {
    std::size_t size = 0;  // bytes of the UTF-8 sequence; 0 when there is none at that place
    char32_t code_point = 0;
    std::string_view ascii;  // what it is read as: "'", "\"", "-", " " or "..."
    std::string_view name;   // the Unicode name, e.g. "RIGHT SINGLE QUOTATION MARK"
    bool is_space() const { return ascii == " "; }
};

// The typographic character encoded at bytes[pos], if it is one this project reads as ASCII:
// ‘ ’ ‚ ‛ “ ” „ ‟ ′ ″ (quotes and primes), ‐ ‑ ‒ – — ― − (dashes), U+00A0, U+2000–U+200A, U+202F,
// U+205F, U+3000 (spaces) and … (ellipsis).
Typographic typographic_at(std::string_view bytes, std::size_t pos);

// `s` with every such character replaced by its ASCII form.
std::string fold_typography(std::string_view s);

// "U+2019": the code point written the Unicode way.
std::string code_point_label(char32_t code_point);

}  // namespace text
