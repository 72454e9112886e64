// U+FFFD in old_string: `read` shows each byte that is not UTF-8 as U+FFFD, so in old_string each
// U+FFFD stands for exactly one such byte at that place. Finding such places, and writing the
// bytes back into new_string.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace text {

// True when `needle` has a U+FFFD (a stand-in for a byte that is not UTF-8).
bool has_stand_ins(std::string_view needle);

struct StandInPlace {
    std::size_t begin = 0;  // in the searched text
    std::size_t end = 0;
    std::string bytes;  // the text's bytes the needle's U+FFFDs stand for, in order
};

// Every non-overlapping place of `needle` in `lf`, each U+FFFD of the needle matching one byte of
// `invalid` (the sorted offsets of `lf`'s bytes that are not UTF-8), in text order.
std::vector<StandInPlace> find_with_stand_ins(std::string_view lf, std::string_view needle,
                                              const std::vector<std::size_t>& invalid);

// new_string with its U+FFFDs written as the file's bytes they stand for in old_string (`bytes`,
// one per U+FFFD of old_string): in order when both have as many; otherwise those in the text the
// two share at the start and at the end. A U+FFFD new in new_string stays one.
std::string restore_invalid_bytes(std::string_view needle, std::string_view replacement, std::string_view bytes);

}  // namespace text
