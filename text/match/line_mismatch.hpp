// How one line of the file differs from the line old_string has there, in words (whitespace,
// typography, the column where the text differs, bytes that are not UTF-8), and lines shown with
// their whitespace made visible.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace text {

// A line with its whitespace made visible: tab as →, leading and trailing spaces as ·, CR as ␍;
// bytes that are not UTF-8 as U+FFFD; cut with … after `max_bytes`.
std::string visible_whitespace(std::string_view line, std::size_t max_bytes = 200);

// The bytes [from, from + max_bytes) of `line` (from at a character start) made visible, with …
// where cut; leading and trailing spaces are judged on the whole line.
std::string render_visible(std::string_view line, std::size_t from, std::size_t max_bytes);

// How `file_line` differs from `needle_line` (old_string's, named `old_name`), in words.
std::string describe_difference(std::string_view file_line, std::string_view needle_line, std::string_view old_name);

}  // namespace text
