// When old_string matched only with Unicode folded (curly quotes read as ASCII, say), new_string is
// written with the file's characters at the same places, as the indentation tier re-indents it: a
// file with curly quotes keeps them, a file with ASCII quotes keeps those.
#pragma once

#include <string>
#include <string_view>

namespace text {

// `replacement` with the file's typography. `needle` is old_string and `region` the file's text it
// matched (both with "\n" newlines, equal once folded by unicode_fold, trailing whitespace aside).
// Characters of `replacement` kept from `needle` take the file's form at that place; quotes new in
// `replacement` take the file's convention when the region shows one (curly quotes opening or
// closing by their context). Anything else is left as given.
std::string keep_file_typography(std::string_view needle, std::string_view region, std::string_view replacement);

}  // namespace text
