// SplicedBytes and ByteParts: the span an edit replaces, found once; parts compared and joined
// without joining them first.
#include "text/bytes/spliced_bytes.hpp"

#include <algorithm>
#include <vector>

#include "text/bytes/byte_scan.hpp"

namespace text {

std::size_t ByteParts::size() const {
    std::size_t n = 0;
    for (const auto part : span()) n += part.size();
    return n;
}

bool ByteParts::operator==(std::string_view other) const {
    if (other.size() != size()) return false;
    for (const auto part : span()) {
        if (other.substr(0, part.size()) != part) return false;
        other.remove_prefix(part.size());
    }
    return true;
}

std::string ByteParts::joined() const {
    std::string out;
    out.reserve(size());
    for (const auto part : span()) out.append(part);
    return out;
}

ByteParts SplicedBytes::over(std::string_view old) const {
    ByteParts out;
    out.parts = {old.substr(0, at), std::string_view(with), old.substr(at + replaced)};
    out.count = 3;
    return out;
}

base::Result<SplicedBytes, SpliceError> splice_span(std::string_view bytes, std::span<const Replacement> replacements,
                                                    std::string_view newline) {
    SplicedBytes out;
    if (replacements.empty()) return out;
    const std::size_t begin = replacements.front().begin;
    const std::size_t end = replacements.back().end;
    // splice() checks every range (inside the file, sorted, apart); the window is then valid.
    if (begin > end || end > bytes.size())
        return base::fail(SpliceError{"the replacements [" + std::to_string(begin) + ", " + std::to_string(end) +
                                      ") are outside the file (" + std::to_string(bytes.size()) +
                                      " bytes) or out of order"});
    std::vector<Replacement> shifted(replacements.begin(), replacements.end());
    for (auto& r : shifted) {
        if (r.begin < begin || r.end > end)
            return base::fail(SpliceError{"a replacement lies outside the span of the first and the last"});
        r.begin -= begin;
        r.end -= begin;
    }
    auto spliced = splice(bytes.substr(begin, end - begin), shifted, newline);
    if (!spliced) return base::fail(std::move(spliced).error());
    out.at = begin;
    out.replaced = end - begin;
    out.with = std::move(spliced).value();
    return out;
}

SplicedBytes spliced_between(std::string_view old, std::string_view now) {
    const std::size_t prefix = common_prefix(old, now);
    const std::size_t suffix = common_suffix(old, now, std::min(old.size(), now.size()) - prefix);
    return {prefix, old.size() - prefix - suffix, std::string(now.substr(prefix, now.size() - prefix - suffix))};
}

std::size_t common_prefix(std::string_view a, const ByteParts& b) {
    std::size_t n = 0;
    for (const auto part : b.span()) {
        const std::string_view rest = a.substr(std::min(n, a.size()));
        const std::size_t shared = common_prefix(rest, part);
        n += shared;
        if (shared < part.size()) break;
    }
    return n;
}

std::size_t common_suffix(std::string_view a, const ByteParts& b, std::size_t limit) {
    std::size_t n = 0;
    for (std::size_t i = b.count; i-- > 0 && n < limit;) {
        const std::string_view part = b.parts[i];
        const std::string_view rest = a.substr(0, a.size() - std::min(n, a.size()));
        const std::size_t shared = common_suffix(rest, part, limit - n);
        n += shared;
        if (shared < part.size()) break;
    }
    return n;
}

}  // namespace text
