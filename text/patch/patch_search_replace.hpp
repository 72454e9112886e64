// Reading SEARCH/REPLACE blocks (Roo Code's apply_diff format) into the patch model.
// Its markers, escapes and the malformed-block messages belong to this format alone.
#pragma once

#include <string_view>

#include "text/patch/patch_model.hpp"
#include "base/result.hpp"

namespace text {

// The format, as error messages show it.
extern const char* const kSearchReplaceFormat;

// One FilePatch with an empty path (the caller names the file) and one block per
//   <<<<<<< SEARCH
//   :start_line:N        (optional)
//   :end_line:M          (optional)
//   -------              (optional)
//   old lines
//   =======
//   new lines
//   >>>>>>> REPLACE
// Content lines starting with `\<<<<<<<`, `\=======`, `\>>>>>>>`, `\-------`, `\:start_line:` or
// `\:end_line:` lose the backslash. Text outside the blocks is ignored. A missing or misordered
// marker, a second `=======`, or a SEARCH with no visible text is an error naming the line.
base::Result<Patch, PatchError> parse_search_replace(std::string_view patch);

}  // namespace text
