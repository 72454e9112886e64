// What `--check 'GLOB=COMMAND'` means: which written files a check applies to (a glob) and the
// program it runs (argv split with shell-like quoting, `{file}` filled in). Pure: no processes,
// no files; tools/checks runs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/glob.hpp"

namespace tools {

// A glob over a file's name, or over its path relative to its root when the glob holds a `/`.
// `*` any run of characters but `/`; `?` one character but `/`; `**` as a whole component any run
// including `/` (`**/` also matches no folder at all; elsewhere `**` is `*`); `{a,b,c}` alternatives (nested allowed, expanded at
// parse time, at most max_alternatives); `[abc]`, `[a-z]`, `[!a]` one character of a set; `\x`
// the character x. Case-sensitive.
class Glob {
public:
    static constexpr std::size_t max_alternatives = 256;
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

using text::glob_match;  // text/glob.hpp: the matcher of one brace-free alternative

// Splits a command line into argv like a POSIX shell's quoting, with no expansion: whitespace
// separates words; '...' keeps everything literally; "..." keeps everything but `\"`, `\\`,
// `\$` and `` \` `` (a backslash before any other character stays); outside quotes `\x` is x.
// Fails on an unterminated quote, a trailing backslash, or no word at all.
base::Result<std::vector<std::string>> split_command(std::string_view command);

struct CheckRule {
    Glob glob;
    std::string command;            // as written, for results
    std::vector<std::string> argv;  // split; `{file}` still in place

    static constexpr std::string_view file_placeholder = "{file}";

    // Parses "GLOB=COMMAND" (split at the first `=`); a failure names the spec ("SPEC: why").
    static base::Result<CheckRule> parse(std::string_view spec);
    // The same for `--lsp 'GLOB=COMMAND'`: the command starts a language server, so no `{file}`.
    static base::Result<CheckRule> parse_language_server(std::string_view spec);

    // argv for one file: every `{file}` inside an argument replaced by `path` (the argument stays
    // one argument); when no argument holds `{file}`, `path` is appended as the last one.
    std::vector<std::string> argv_for(const std::string& path) const;
};

}  // namespace tools
