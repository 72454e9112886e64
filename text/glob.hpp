// The glob matcher that both `--check` globs and ignore rules (gitignore syntax) use: one
// brace-free pattern against one '/'-separated path, in time linear in pattern x path (no
// backtracking, so no pattern makes it slow). Pure.
#pragma once

#include <string_view>

namespace text {

// Does `pattern` match all of `text`?
//   `*`  any run of characters but `/`;   `?` one character but `/`;
//   `**` as a whole component: `**/` any run of folders, none included; a trailing `/**`
//        everything below; `**` elsewhere is `*`;
//   `[abc]`, `[a-z]`, `[!a]`, `[^a]` one character (not `/`) of a set; `\x` the character x.
// `fold_case`: ASCII letters compare case-insensitively (Windows and macOS file names).
bool glob_match(std::string_view pattern, std::string_view text, bool fold_case = false);

}  // namespace text
