// Why old_string was not found: the closest region of the file, which of its lines differ and how,
// with whitespace made visible. It is the one part of matching that searches by likeness.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "text/match/line_mismatch.hpp"
#include "text/match/matcher.hpp"

namespace text {

struct NearMiss {
    std::string message;              // the whole explanation, ending with the call that would work
    std::optional<LineRange> region;  // the closest region, when the file has one
};

// `lf_text`: the file as the matcher sees it (no BOM, "\n" newlines); `needle`: old_string the same
// way. Bounded work: a few linear searches of the file for the needle's most distinctive lines (or
// words), then a likeness score of at most a few hundred candidate windows.
NearMiss explain_not_found(std::string_view lf_text, std::string_view needle, std::string_view old_name = "old_string");

}  // namespace text
