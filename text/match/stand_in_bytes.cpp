// Matching old_string's U+FFFDs to the file's bytes that are not UTF-8, and restoring them.
#include "text/match/stand_in_bytes.hpp"

#include <algorithm>
#include <optional>

#include "text/bytes/byte_search.hpp"

namespace text {

namespace {
constexpr std::string_view fffd = "\xEF\xBF\xBD";
}  // namespace

bool has_stand_ins(std::string_view needle) { return find_bytes(needle, fffd) != std::string_view::npos; }

std::vector<StandInPlace> find_with_stand_ins(std::string_view lf, std::string_view needle,
                                              const std::vector<std::size_t>& invalid) {
    std::vector<StandInPlace> found;
    if (invalid.empty()) return found;
    // The needle as pieces of literal text, each followed by one U+FFFD except the last; where
    // each piece and each stand-in byte lies relative to the start of a place in the file.
    std::vector<std::string_view> pieces;
    std::vector<std::size_t> piece_at, byte_at;
    std::size_t b = 0, offset = 0;
    while (true) {
        const std::size_t e = find_bytes(needle, fffd, b);
        const std::string_view piece = needle.substr(b, (e == std::string_view::npos ? needle.size() : e) - b);
        pieces.push_back(piece);
        piece_at.push_back(offset);
        offset += piece.size();
        if (e == std::string_view::npos) break;
        byte_at.push_back(offset++);
        b = e + fffd.size();
    }
    const std::size_t length = offset;
    auto is_invalid = [&invalid](std::size_t pos) { return std::binary_search(invalid.begin(), invalid.end(), pos); };
    auto matches_at = [&](std::size_t start) {
        if (start + length > lf.size()) return false;
        for (std::size_t k = 0; k < pieces.size(); ++k)
            if (lf.compare(start + piece_at[k], pieces[k].size(), pieces[k]) != 0) return false;
        for (const std::size_t at : byte_at)
            if (!is_invalid(start + at)) return false;
        return true;
    };
    auto take = [&](std::size_t start) {
        StandInPlace p{start, start + length, {}};
        for (const std::size_t at : byte_at) p.bytes += lf[start + at];
        found.push_back(std::move(p));
    };
    // Candidates: where the longest piece occurs, or, when there is no literal text, every invalid byte.
    std::size_t longest = 0;
    for (std::size_t k = 1; k < pieces.size(); ++k)
        if (pieces[k].size() > pieces[longest].size()) longest = k;
    std::size_t next_free = 0;  // places do not overlap
    if (pieces[longest].empty()) {
        for (const std::size_t pos : invalid) {
            if (pos < byte_at[0] || pos - byte_at[0] < next_free) continue;
            const std::size_t start = pos - byte_at[0];
            if (matches_at(start)) take(start), next_free = start + length;
        }
        return found;
    }
    for (std::size_t hit = find_bytes(lf, pieces[longest]); hit != std::string_view::npos;
         hit = find_bytes(lf, pieces[longest], hit + 1)) {
        if (hit < piece_at[longest]) continue;
        const std::size_t start = hit - piece_at[longest];
        if (start < next_free || !matches_at(start)) continue;
        take(start);
        next_free = start + length;
    }
    return found;
}

std::string restore_invalid_bytes(std::string_view needle, std::string_view replacement, std::string_view bytes) {
    std::vector<std::size_t> in_new;
    for (std::size_t p = find_bytes(replacement, fffd); p != std::string_view::npos;
         p = find_bytes(replacement, fffd, p + 3))
        in_new.push_back(p);
    std::vector<std::optional<char>> byte_for(in_new.size());
    if (in_new.size() == bytes.size()) {
        for (std::size_t k = 0; k < in_new.size(); ++k) byte_for[k] = bytes[k];
    } else {
        std::size_t prefix = 0;
        while (prefix < needle.size() && prefix < replacement.size() && needle[prefix] == replacement[prefix]) ++prefix;
        std::size_t suffix = 0;
        while (suffix < needle.size() - prefix && suffix < replacement.size() - prefix &&
               needle[needle.size() - 1 - suffix] == replacement[replacement.size() - 1 - suffix])
            ++suffix;
        std::size_t k = 0;
        for (; k < in_new.size() && in_new[k] + 3 <= prefix; ++k) byte_for[k] = bytes[k];
        for (std::size_t back = 0; back < in_new.size() && back < bytes.size(); ++back) {
            const std::size_t idx = in_new.size() - 1 - back;
            if (in_new[idx] < replacement.size() - suffix || idx < k) break;
            byte_for[idx] = bytes[bytes.size() - 1 - back];
        }
    }
    std::string out;
    out.reserve(replacement.size());
    std::size_t from = 0;
    for (std::size_t k = 0; k < in_new.size(); ++k) {
        out.append(replacement.substr(from, in_new[k] - from));
        if (byte_for[k])
            out += *byte_for[k];
        else
            out.append(fffd);
        from = in_new[k] + 3;
    }
    out.append(replacement.substr(from));
    return out;
}

}  // namespace text
