// Typographic characters and their ASCII forms: decoding of the few UTF-8 sequences concerned.
// Only the table lives here; the views that fold a whole file are in normalized_view.cpp.
#include "text/unicode/typography.hpp"

namespace text {

namespace {

struct Entry {
    char32_t code_point;
    std::string_view ascii;
    std::string_view name;
};

// Sorted by code point.
constexpr Entry kTable[] = {
    {0x00A0, " ", "NO-BREAK SPACE"},
    {0x2000, " ", "EN QUAD"},
    {0x2001, " ", "EM QUAD"},
    {0x2002, " ", "EN SPACE"},
    {0x2003, " ", "EM SPACE"},
    {0x2004, " ", "THREE-PER-EM SPACE"},
    {0x2005, " ", "FOUR-PER-EM SPACE"},
    {0x2006, " ", "SIX-PER-EM SPACE"},
    {0x2007, " ", "FIGURE SPACE"},
    {0x2008, " ", "PUNCTUATION SPACE"},
    {0x2009, " ", "THIN SPACE"},
    {0x200A, " ", "HAIR SPACE"},
    {0x2010, "-", "HYPHEN"},
    {0x2011, "-", "NON-BREAKING HYPHEN"},
    {0x2012, "-", "FIGURE DASH"},
    {0x2013, "-", "EN DASH"},
    {0x2014, "-", "EM DASH"},
    {0x2015, "-", "HORIZONTAL BAR"},
    {0x2018, "'", "LEFT SINGLE QUOTATION MARK"},
    {0x2019, "'", "RIGHT SINGLE QUOTATION MARK"},
    {0x201A, "'", "SINGLE LOW-9 QUOTATION MARK"},
    {0x201B, "'", "SINGLE HIGH-REVERSED-9 QUOTATION MARK"},
    {0x201C, "\"", "LEFT DOUBLE QUOTATION MARK"},
    {0x201D, "\"", "RIGHT DOUBLE QUOTATION MARK"},
    {0x201E, "\"", "DOUBLE LOW-9 QUOTATION MARK"},
    {0x201F, "\"", "DOUBLE HIGH-REVERSED-9 QUOTATION MARK"},
    {0x2026, "...", "HORIZONTAL ELLIPSIS"},
    {0x202F, " ", "NARROW NO-BREAK SPACE"},
    {0x2032, "'", "PRIME"},
    {0x2033, "\"", "DOUBLE PRIME"},
    {0x205F, " ", "MEDIUM MATHEMATICAL SPACE"},
    {0x2212, "-", "MINUS SIGN"},
    {0x3000, " ", "IDEOGRAPHIC SPACE"},
};

const Entry* lookup(char32_t cp) {
    for (const Entry& e : kTable) {
        if (e.code_point == cp) return &e;
        if (e.code_point > cp) break;
    }
    return nullptr;
}

}  // namespace

Typographic typographic_at(std::string_view b, std::size_t pos) {
    Typographic t;
    if (pos >= b.size()) return t;
    const auto c0 = static_cast<unsigned char>(b[pos]);
    char32_t cp = 0;
    std::size_t size = 0;
    if (c0 == 0xC2) {
        if (pos + 1 < b.size() && static_cast<unsigned char>(b[pos + 1]) == 0xA0) {
            cp = 0xA0;
            size = 2;
        }
    } else if (c0 == 0xE2 || c0 == 0xE3) {
        if (pos + 2 < b.size()) {
            const auto c1 = static_cast<unsigned char>(b[pos + 1]);
            const auto c2 = static_cast<unsigned char>(b[pos + 2]);
            if (c1 >= 0x80 && c1 <= 0xBF && c2 >= 0x80 && c2 <= 0xBF) {
                cp = (static_cast<char32_t>(c0 & 0x0F) << 12) | (static_cast<char32_t>(c1 & 0x3F) << 6) |
                     static_cast<char32_t>(c2 & 0x3F);
                size = 3;
            }
        }
    }
    if (size == 0) return t;
    const Entry* e = lookup(cp);
    if (!e) return t;
    t.size = size;
    t.code_point = cp;
    t.ascii = e->ascii;
    t.name = e->name;
    return t;
}

std::string fold_typography(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) >= 0xC2) {
            const Typographic t = typographic_at(s, i);
            if (t.size) {
                out += t.ascii;
                i += t.size;
                continue;
            }
        }
        out += s[i++];
    }
    return out;
}

}  // namespace text
