// File facts: BOM, line endings, UTF-8 validity, binary detection, line splitting.
#include "text/bytes/file_facts.hpp"

#include "text/bytes/byte_scan.hpp"

#include <algorithm>
#include <cstring>

namespace text {

Bom detect_bom(std::string_view b, std::size_t* size) {
    auto starts = [&](std::string_view p) { return b.substr(0, p.size()) == p; };
    Bom bom = Bom::none;
    std::size_t n = 0;
    // UTF-32LE must be tested before UTF-16LE: its BOM starts with the same two bytes.
    if (starts(std::string_view("\xFF\xFE\x00\x00", 4))) {
        bom = Bom::utf32le;
        n = 4;
    } else if (starts(std::string_view("\x00\x00\xFE\xFF", 4))) {
        bom = Bom::utf32be;
        n = 4;
    } else if (starts("\xEF\xBB\xBF")) {
        bom = Bom::utf8;
        n = 3;
    } else if (starts("\xFF\xFE")) {
        bom = Bom::utf16le;
        n = 2;
    } else if (starts("\xFE\xFF")) {
        bom = Bom::utf16be;
        n = 2;
    }
    if (size) *size = n;
    return bom;
}

const char* to_string(LineEnding e) {
    switch (e) {
        case LineEnding::lf: return "lf";
        case LineEnding::crlf: return "crlf";
        case LineEnding::cr: return "cr";
        case LineEnding::mixed: return "mixed";
        case LineEnding::none: break;
    }
    return "none";
}

const char* to_string(Bom b) {
    switch (b) {
        case Bom::utf8: return "utf-8";
        case Bom::utf16le: return "utf-16le";
        case Bom::utf16be: return "utf-16be";
        case Bom::utf32le: return "utf-32le";
        case Bom::utf32be: return "utf-32be";
        case Bom::none: break;
    }
    return "none";
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c == 0xE0) {
        len = 3;
        lo = 0xA0;
    } else if (c >= 0xE1 && c <= 0xEC)
        len = 3;
    else if (c == 0xED) {
        len = 3;
        hi = 0x9F;
    } else if (c >= 0xEE && c <= 0xEF)
        len = 3;
    else if (c == 0xF0) {
        len = 4;
        lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3)
        len = 4;
    else if (c == 0xF4) {
        len = 4;
        hi = 0x8F;
    } else
        return 0;
    if (i + len > s.size()) return 0;
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if (c1 < lo || c1 > hi) return 0;
    for (std::size_t k = 2; k < len; ++k) {
        const auto ck = static_cast<unsigned char>(s[i + k]);
        if (ck < 0x80 || ck > 0xBF) return 0;
    }
    return len;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        // Fast path over ASCII, 32 then eight bytes at a time (grep asks this of every file).
        while (i + 32 <= n) {
            std::uint64_t w[4];
            std::memcpy(w, s.data() + i, 32);
            if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull) break;
            i += 32;
        }
        while (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

std::string to_valid_utf8(std::string_view s) {
    if (is_valid_utf8(s)) return std::string(s);  // the usual case: one check, one copy
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.data() + i, len);
            i += len;
        }
    }
    return out;
}

std::vector<std::size_t> invalid_utf8_bytes(std::string_view s) {
    std::vector<std::size_t> out;
    if (is_valid_utf8(s)) return out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0)
            out.push_back(i++);
        else
            i += len;
    }
    return out;
}

FileFacts analyze(std::string_view bytes) {
    FileFacts f;
    f.bom = detect_bom(bytes, &f.bom_size);
    const std::string_view body = bytes.substr(f.bom_size);
    const bool wide = f.bom != Bom::none && f.bom != Bom::utf8;
    if (wide) return f;  // NULs are part of UTF-16/32 text; its line facts are not computed on bytes

    // One vectorised pass counts every LF and notes whether a NUL or a CR occurs; only then is
    // each CR looked at (rare outside CRLF and CR files) to tell CRLF pairs from lone CRs.
    const char* p = body.data();
    const std::size_t n = body.size();
    const ByteCensus seen = census(body);
    f.binary = seen.nul;
    const std::size_t all_lf = seen.lf;
    std::size_t crlf = 0, lone_cr = 0;
    for (const char* cr = seen.cr ? static_cast<const char*>(std::memchr(p, '\r', n)) : nullptr; cr;
         cr = static_cast<const char*>(std::memchr(cr + 1, '\r', n - static_cast<std::size_t>(cr + 1 - p)))) {
        if (cr + 1 < p + n && cr[1] == '\n')
            ++crlf;
        else
            ++lone_cr;
        if (cr + 1 >= p + n) break;
    }
    f.counts.lf = all_lf - crlf;
    f.counts.crlf = crlf;
    f.counts.cr = lone_cr;
    const int kinds = (f.counts.lf > 0) + (f.counts.crlf > 0) + (f.counts.cr > 0);
    if (kinds > 1)
        f.line_ending = LineEnding::mixed;
    else if (f.counts.crlf)
        f.line_ending = LineEnding::crlf;
    else if (f.counts.lf)
        f.line_ending = LineEnding::lf;
    else if (f.counts.cr)
        f.line_ending = LineEnding::cr;
    f.final_newline = n > 0 && (body.back() == '\n' || body.back() == '\r');
    return f;
}

std::string_view dominant_newline(const FileFacts& f) {
    const auto& c = f.counts;
    if (c.crlf >= c.lf && c.crlf >= c.cr && c.crlf > 0) return "\r\n";
    if (c.cr > c.lf && c.cr > c.crlf) return "\r";
    return "\n";
}

std::vector<LineSpan> split_lines(std::string_view bytes) {
    std::vector<LineSpan> lines;
    for_each_line(bytes, [&](const LineSpan& s) {
        lines.push_back(s);
        return true;
    });
    return lines;
}

}  // namespace text
