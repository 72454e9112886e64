// Telling which apply_diff format a patch is written in, and reading it with the right parser.
// The one place that knows all three formats' first lines.
#pragma once

#include <string_view>

#include "text/patch/patch_model.hpp"
#include "base/result.hpp"

namespace text {

// The format of the first line that only one format starts with: "<<<<<<< SEARCH" (search_replace);
// "*** Begin Patch", "*** Update File:", "*** Add File:", "*** Delete File:" (apply_patch);
// "diff --git ", a "--- " line followed by a "+++ " line, "@@ -", or an "@@" line followed by a
// ' ', '-' or '+' line (unified). None: an error that shows what each format looks like.
base::Result<PatchFormat, PatchError> detect_patch_format(std::string_view patch);

// detect_patch_format, then the parser of that format.
base::Result<Patch, PatchError> parse_patch(std::string_view patch);

}  // namespace text
