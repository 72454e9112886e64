// Globs: `Glob` (brace alternatives, on a name or a relative path: --check rules, find, grep) and
// `glob_match`, which it and the ignore rules (gitignore syntax) use: one brace-free pattern against
// one '/'-separated path, in time linear in pattern x path (no backtracking). Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace text {

// Does `pattern` match all of `text`?
//   `*`  any run of characters but `/`;   `?` one character but `/`;
//   `**` as a whole component: `**/` any run of folders, none included; a trailing `/**`
//        everything below; `**` elsewhere is `*`;
//   `[abc]`, `[a-z]`, `[!a]`, `[^a]` one character (not `/`) of a set; `\x` the character x.
// `fold_case`: ASCII letters compare case-insensitively (Windows and macOS file names).
bool glob_match(std::string_view pattern, std::string_view text, bool fold_case = false);

// A glob over a file's name, or over its path relative to its root when the glob holds a `/`.
// `*` any run of characters but `/`; `?` one character but `/`; `**` as a whole component any run
// including `/` (`**/` also matches no folder at all; elsewhere `**` is `*`); `{a,b,c}`
// alternatives (nested allowed, expanded at parse time, at most max_alternatives, counted before they are expanded; a glob of at most
// max_pattern_bytes); `[abc]`, `[a-z]`, `[!a]` one character of a set; `\x`
// the character x. Case-sensitive.
class Glob {
public:
    static constexpr std::size_t max_alternatives = 256;
    static constexpr std::size_t max_pattern_bytes = 4096;
    static base::Result<Glob> parse(std::string_view pattern);

    // `name`: the file's name; `relative`: its path relative to its root ('/'-separated).
    bool matches(std::string_view name, std::string_view relative) const;
    const std::string& text() const { return text_; }
    bool on_path() const { return on_path_; }

private:
    std::string text_;
    std::vector<std::string> alternatives_;  // the pattern with every brace expanded
    bool on_path_ = false;
};

}  // namespace text
