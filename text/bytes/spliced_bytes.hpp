// A file's new bytes kept as its old bytes with one span replaced, and bytes held as a few parts:
// how an edit of a big file is carried from plan to disk without a second whole copy of the file.
// The write, the fingerprint, the approval's hash, the diff and the ledger read the parts.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "text/bytes/splice.hpp"

namespace text {

// Bytes as up to three consecutive parts (views into buffers that outlive this).
struct ByteParts {
    std::array<std::string_view, 3> parts{};
    std::size_t count = 0;

    ByteParts() = default;
    explicit ByteParts(std::string_view whole) : parts{whole}, count(1) {}

    std::span<const std::string_view> span() const { return {parts.data(), count}; }
    std::size_t size() const;
    bool operator==(std::string_view other) const;
    // The parts in one string (a copy).
    std::string joined() const;
};

// new = old[0, at) + with + old[at + replaced, old.size()).
struct SplicedBytes {
    std::size_t at = 0;
    std::size_t replaced = 0;
    std::string with;

    // The new bytes, given the old ones this was planned on.
    ByteParts over(std::string_view old) const;
    std::size_t size_over(std::string_view old) const { return old.size() - replaced + with.size(); }
    // Whether the new bytes are the old ones.
    bool changes_nothing(std::string_view old) const { return old.substr(at, replaced) == with; }
};

// The change splice() makes, as one span: from the first replacement's begin to the last one's end
// (the bytes between them kept), each text's newlines written as `newline`. Same checks as splice().
base::Result<SplicedBytes, SpliceError> splice_span(std::string_view bytes, std::span<const Replacement> replacements,
                                                    std::string_view newline);

// `now` as `old` with one span replaced: the span between the bytes they share at the start and at
// the end (so the change is kept without keeping `now` whole).
SplicedBytes spliced_between(std::string_view old, std::string_view now);

// How many bytes `a` and the parts share from the start; at the end, at most `limit`.
std::size_t common_prefix(std::string_view a, const ByteParts& b);
std::size_t common_suffix(std::string_view a, const ByteParts& b, std::size_t limit);

}  // namespace text
