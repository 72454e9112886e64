// Folding one cluster: ASCII and characters without a decomposition are kept as they are; the
// rest are normalised (NFKC, unicode_normalization.hpp), then read through the typography table.
#include "text/unicode/unicode_fold.hpp"

#include <optional>

#include "text/unicode/typography.hpp"
#include "text/unicode/unicode_normalization.hpp"

namespace text {

FoldedCluster fold_cluster_at(std::string_view s, std::size_t pos, std::size_t end) {
    FoldedCluster out;
    const auto c0 = static_cast<unsigned char>(s[pos]);
    // The common case: an ASCII character not followed by a combining mark.
    if (c0 < 0x80 && (pos + 1 >= end || static_cast<unsigned char>(s[pos + 1]) < 0x80)) return out;

    char32_t cp = 0;
    const std::size_t first = unicode::decode(s, pos, end, &cp);
    if (first == 0) return out;  // not UTF-8: kept as it is
    std::size_t size = first;
    std::size_t count = 1;
    bool may_change = unicode::has_decomposition(cp);
    while (pos + size < end && count < unicode::max_cluster_code_points) {
        char32_t next = 0;
        const std::size_t n = unicode::decode(s, pos + size, end, &next);
        if (n == 0 || !unicode::joins_previous(next)) break;
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

    const std::optional<std::string> normalized = unicode::nfkc(s.substr(pos, size));
    if (!normalized) return out;
    std::string folded = fold_typography(*normalized);
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
