// Line-number prefixes that file views put before each line (our `read`'s "  12\t", Claude Code's
// "12→", Roo's "12 | "): old_string copied from such a view is matched without them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace text {

struct UnnumberedText {
    std::string text;              // the lines without their prefixes
    std::size_t first_number = 0;  // the number on the first numbered line
    std::size_t first_index = 0;   // that line's index in the text (0 when it is the first line)
};

// `lf_text` without the line-number prefixes of a file view (`^[ \t]*[0-9]+` then our `read`'s
// tab, Claude Code's `→` or Roo's ` | `), when every non-empty line has one, all of one form;
// nullopt otherwise.
std::optional<UnnumberedText> strip_line_number_prefixes(std::string_view lf_text);

}  // namespace text
