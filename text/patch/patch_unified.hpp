// Reading unified diffs (git and GNU) into the patch model: file headers, git extended headers,
// hunks. The format's tolerance rules (counts, prefixes, timestamps) are all here.
#pragma once

#include <string_view>

#include "text/patch/patch_model.hpp"
#include "base/result.hpp"

namespace text {

// The format, as error messages show it.
extern const char* const kUnifiedFormat;

// One FilePatch per file (sections naming the same file are merged; `--- /dev/null` creates,
// `+++ /dev/null` deletes; git `rename from/to` moves; `a/` and `b/` are dropped; a tab and what
// follows it, the timestamp, is not part of a path; git's quoted names are unquoted). Hunks with no
// file header before them form one FilePatch with an empty path (the caller names the file).
// Hunk line counts are followed when they are right and not needed when they are missing or
// wrong: a hunk ends at the first line that cannot belong to it. Text between sections is ignored.
// Binary patches are an error.
base::Result<Patch, PatchError> parse_unified_diff(std::string_view patch);

}  // namespace text
