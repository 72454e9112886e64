// The header lines of a unified diff: "@@ -a,b +c,d @@" hunk headers and the file names of
// "--- " / "+++ " lines (git's C-quoted names included), read and written.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace text {

struct HunkHeader {
    std::optional<std::size_t> old_start, old_count, new_start, new_count;
};

// "@@ -a,b +c,d @@ section": the numbers when they are there and well formed, none otherwise.
HunkHeader parse_hunk_header(std::string_view line);

// `prefix` + `name` as a diff header writes it: as is, or quoted as git quotes it
// (text::quoted_path: "a/odd\nname") when it holds a byte that would end or forge a line, a quote
// or backslash, or a leading or trailing blank. git apply, patch and header_name read both forms
// back to the same bytes.
std::string quote_path(std::string_view prefix, std::string_view name);

// The name on a "--- " / "+++ " line (after the marker): quoted, or up to a tab, trailing blanks cut.
std::string header_name(std::string_view rest);

// `name` without its "a/" or "b/" (side 'a' or 'b').
std::string strip_prefix(std::string name, char side);

}  // namespace text
