// One edit (old_string -> new_string) applied to a file's bytes in memory: the `edit` tool's
// planner, and each step of multiedit's.
#pragma once

#include <string>
#include <string_view>

#include <vector>

#include "text/matcher.hpp"
#include "tools/arguments.hpp"
#include "tools/change.hpp"

namespace tools {

// The error reason a matching failure is reported with.
base::ErrorReason match_error_reason(text::MatchErrorKind kind);

// Applies `edit` to `bytes` (`exists`: the file exists; `display`: how messages name it) on top
// of `plan` (its replacement count adds up); inserted text takes `newline`.
base::Result<Plan> apply_one_edit(const std::string& bytes, bool exists, const std::string& display, const OneEdit& edit,
                                  std::string_view newline, Plan plan);

// With `expected_replacements` given (> 0): old_string is matched at every place (as with
// replace_all), and the call is refused unless it matched exactly that many (`lines`: each
// place's lines, for the message). Success when not given or equal.
base::Result<void> check_expected_replacements(const OneEdit& edit, const std::vector<text::LineRange>& lines,
                                               const std::string& display);

}  // namespace tools
