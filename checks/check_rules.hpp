// What `--check 'GLOB=COMMAND'` means: which written files a check applies to (a glob) and the
// program it runs (argv split with shell-like quoting, `{file}` filled in). Pure: no processes,
// no files; checks/checks runs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/paths/glob.hpp"

namespace checks {

// Splits a command line into argv like a POSIX shell's quoting, with no expansion: whitespace
// separates words; '...' keeps everything literally; "..." keeps everything but `\"`, `\\`,
// `\$` and `` \` `` (a backslash before any other character stays); outside quotes `\x` is x.
// Fails on an unterminated quote, a trailing backslash, or no word at all.
base::Result<std::vector<std::string>> split_command(std::string_view command);

struct CheckRule {
    text::Glob glob;
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

}  // namespace checks
