// The indentation tier: a needle found where the file has the same lines moved by one uniform
// indentation shift (a prefix added or removed, or tabs for spaces at a constant width), and the
// replacement moved by the same shift.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "text/bytes/lines.hpp"

namespace text {

// A uniform indentation shift: the file's lines are the needle's with `prefix` added (add) or
// removed (!add); or, when one side indents with tabs and the other with spaces, every line's
// indentation width (tabs counted as tab_width columns) moved by `delta` columns.
struct IndentShift {
    bool add = true;
    std::string_view prefix;
    bool by_width = false;
    std::size_t tab_width = 0;
    long long delta = 0;
    bool file_uses_tabs = false;
    bool operator==(const IndentShift& o) const { return add == o.add && prefix == o.prefix; }
};

// Told each place found: the byte range [begin, end) of the searched text and its shift. Returns
// false when the place cannot be taken (the search then goes on from the next line).
using IndentedPlaceSink = std::function<bool(std::size_t begin, std::size_t end, const IndentShift& shift)>;

// Every non-overlapping place of `file` (an LF text, indexed by lines) where the lines of `needle`
// are with one indentation shift, by either rule (the prefix rule's shift where both fit). Both
// rules are one tier, so a place is unique only if neither finds another. Returns how many places
// were taken.
std::size_t find_indented(const LineTable& file, std::string_view needle, const IndentedPlaceSink& take);

// `text` (new_string) moved by the same shift as the one between old_string and the file.
std::string reindent(std::string_view text, const IndentShift& shift);

}  // namespace text
