// One edit (old_string -> new_string) applied to a file's bytes in memory: the `edit` tool's
// planner, and each step of multiedit's.
#pragma once

#include <string>
#include <string_view>

#include "tools/arguments.hpp"
#include "tools/change.hpp"

namespace tools {

// Applies `edit` to `bytes` (`exists`: the file exists; `display`: how messages name it) on top
// of `plan` (its replacement count adds up); inserted text takes `newline`.
base::Result<Plan> apply_one_edit(const std::string& bytes, bool exists, const std::string& display, const OneEdit& edit,
                                  std::string_view newline, Plan plan);

}  // namespace tools
