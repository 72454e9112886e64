// One edit (old_string -> new_string) applied to a file's bytes in memory: the `edit` tool's
// planner, and each step of multiedit's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <vector>

#include <nlohmann/json.hpp>

#include "text/match/matcher.hpp"
#include "tools/pipeline/change.hpp"

namespace tools {

// One replacement: what `edit` plans, and one element of multiedit's `edits`.
struct OneEdit {
    std::string old_string;
    std::string new_string;
    bool replace_all = false;
    std::int64_t expected_replacements = 0;  // 0: not given
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OneEdit, old_string, new_string, replace_all, expected_replacements)

// The error reason a matching failure is reported with.
base::ErrorReason match_error_reason(text::MatchErrorKind kind);

// Applies `edit` to `bytes` (`exists`: the file exists; `display`: how messages name it) on top
// of `plan` (its replacement count adds up); inserted text takes `newline`.
base::Result<Plan> apply_one_edit(const std::string& bytes, bool exists, const std::string& display,
                                  const OneEdit& edit, std::string_view newline, Plan plan);

// With `expected_replacements` given (> 0): old_string is matched at every place (as with
// replace_all), and the call is refused unless it matched exactly that many (`lines`: each
// place's lines, for the message). Success when not given or equal.
base::Result<void> check_expected_replacements(const OneEdit& edit, const std::vector<text::LineRange>& lines,
                                               const std::string& display);

}  // namespace tools
