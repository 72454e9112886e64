// Folding one cluster: ASCII and characters without a decomposition are kept without calling
// utf8proc; the rest are normalised (NFKC) into a fixed buffer, then read through the typography table.
#include "text/unicode_fold.hpp"

#include <array>

#include <utf8proc.h>

#include "text/typography.hpp"

namespace text {

namespace {

constexpr std::size_t kMaxClusterCodePoints = 32;

// The code point at s[pos] (pos < end) and its size in bytes; size 0 for a byte that is not UTF-8.
std::size_t decode(std::string_view s, std::size_t pos, std::size_t end, utf8proc_int32_t* cp) {
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data() + pos);
    const utf8proc_ssize_t n = utf8proc_iterate(p, static_cast<utf8proc_ssize_t>(end - pos), cp);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
}

// A code point that NFKC may join to the character before it.
bool joins_previous(utf8proc_int32_t cp) {
    if ((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2)) return true;  // Hangul V and T jamo
    const utf8proc_property_t* prop = utf8proc_get_property(cp);
    return prop->combining_class != 0 || prop->boundclass == UTF8PROC_BOUNDCLASS_EXTEND ||
           prop->boundclass == UTF8PROC_BOUNDCLASS_SPACINGMARK;
}

bool has_decomposition(utf8proc_int32_t cp) {
    return utf8proc_get_property(cp)->decomp_seqindex != UINT16_MAX;
}

}  // namespace

FoldedCluster fold_cluster_at(std::string_view s, std::size_t pos, std::size_t end) {
    FoldedCluster out;
    const auto c0 = static_cast<unsigned char>(s[pos]);
    // The common case: an ASCII character not followed by a combining mark.
    if (c0 < 0x80 && (pos + 1 >= end || static_cast<unsigned char>(s[pos + 1]) < 0x80)) return out;

    utf8proc_int32_t cp = 0;
    const std::size_t first = decode(s, pos, end, &cp);
    if (first == 0) return out;  // not UTF-8: kept as it is
    std::size_t size = first;
    std::size_t count = 1;
    bool may_change = has_decomposition(cp);
    while (pos + size < end && count < kMaxClusterCodePoints) {
        utf8proc_int32_t next = 0;
        const std::size_t n = decode(s, pos + size, end, &next);
        if (n == 0 || !joins_previous(next)) break;
        size += n;
        ++count;
        may_change = true;
    }
    out.size = size;
    if (count == 1) {
        const Typographic t = typographic_at(s, pos);
        if (t.size == size) {
            out.changed = true;
            out.typographic = true;
            out.text = std::string(t.ascii);
            return out;
        }
    }
    if (!may_change) return out;

    std::array<utf8proc_int32_t, 4 * kMaxClusterCodePoints> buffer{};
    constexpr auto options =
        static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
    const utf8proc_ssize_t decomposed =
        utf8proc_decompose(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + pos), static_cast<utf8proc_ssize_t>(size),
                           buffer.data(), static_cast<utf8proc_ssize_t>(buffer.size()), options);
    if (decomposed <= 0 || static_cast<std::size_t>(decomposed) > buffer.size()) return out;
    const utf8proc_ssize_t length = utf8proc_normalize_utf32(buffer.data(), decomposed, options);
    if (length < 0) return out;
    std::string normalized;
    for (utf8proc_ssize_t i = 0; i < length; ++i) {
        utf8proc_uint8_t bytes[4];
        const utf8proc_ssize_t n = utf8proc_encode_char(buffer[static_cast<std::size_t>(i)], bytes);
        normalized.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
    }
    std::string folded = fold_typography(normalized);
    if (folded == s.substr(pos, size)) return out;
    out.changed = true;
    out.text = std::move(folded);
    return out;
}

std::string fold_unicode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const FoldedCluster c = fold_cluster_at(s, i, s.size());
        if (c.changed) {
            out += c.text;
        } else {
            out.append(s.data() + i, c.size);
        }
        i += c.size;
    }
    return out;
}

}  // namespace text
