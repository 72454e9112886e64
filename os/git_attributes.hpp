// The line ending git gives a file in the working tree (`.gitattributes`'s `eol`), for a file the
// tools create: the .gitattributes files from the repository's top (the first folder up with a
// `.git`) down to the file's folder, then `.git/info/attributes`; in each, the last line whose
// pattern matches the path and that speaks of `eol` (or unsets `text`: `-text`, `binary`) decides,
// a deeper file over a shallower one, as git reads them. Patterns are git's: with a `/` they match
// the path from the file's folder, without one the name at any depth; a folder's pattern does not
// reach the files inside it; negative patterns and macros (`[attr]`) are skipped, as git skips the
// first. Each file is read without blocking, bounded in size, lines and line length.
#pragma once

#include <string>

namespace os {

inline constexpr std::size_t max_gitattributes_size = 1u << 20;

// "lf", "crlf", or "" when no attribute says (or `-text`/`binary` turns conversion off) or the
// file is not in a git repository.
std::string git_eol_for(const std::string& real_path);

}  // namespace os
