// Reading OpenAI's `*** Begin Patch` envelope (the apply_patch format) into the patch model.
// Its file operations, `@@` anchors and `*** End of File` belong to this format alone.
#pragma once

#include <string_view>

#include "text/patch/patch_model.hpp"
#include "base/result.hpp"

namespace text {

// The format, as error messages show it.
extern const char* const kApplyPatchFormat;

//   *** Begin Patch
//   *** Add File: PATH            then its lines, each after a '+'
//   *** Delete File: PATH
//   *** Update File: PATH
//   *** Move to: NEWPATH          (optional, right after Update File)
//   @@ ANCHOR                     (optional, repeatable: a line of the file the chunk comes after)
//    context / -removed / +added  (an empty line is an empty context line)
//   *** End of File               (optional: the chunk ends the file)
//   *** End Patch
// Blank lines and ``` fences around the envelope are ignored. Each chunk (the lines between two
// `@@`) is one block. Updates of the same file are merged into one FilePatch.
base::Result<Patch, PatchError> parse_apply_patch(std::string_view patch);

}  // namespace text
