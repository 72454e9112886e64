// Ignore rules in gitignore syntax: one ignore file's lines parsed into rules, and the verdict
// for a path from the ignore files that apply to it (the root's and those of the folders on the
// way down). Pure: the files' text comes in, a verdict goes out; os/ignore_files reads and
// caches the files.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace os {

// One line of an ignore file that is a rule.
struct IgnoreRule {
    std::string text;             // the line as written, trailing spaces removed ("!build/keep.txt")
    std::size_t line = 0;         // 1-based
    std::string pattern;          // without `!`, the anchoring `/` and the trailing `/`
    bool negated = false;         // `!`: re-includes what an earlier rule ignored
    bool directory_only = false;  // trailing `/`: only folders (and so everything inside them)
    bool anchored = false;        // a `/` at the start or inside: relative to the ignore file's folder;
                                  // otherwise the pattern matches a name at any depth below it
};

// The rules of one ignore file in the order written. Blank lines and `#` comments are skipped;
// `\#` and `\!` start a pattern with those characters; trailing spaces are dropped unless
// escaped with `\`.
struct IgnoreFile {
    static constexpr std::size_t max_rules = 10000;
    static constexpr std::size_t max_line = 4096;  // longer lines are skipped

    std::string path;       // the ignore file, as messages show it ("sub/.mcp-editignore")
    std::string directory;  // the folder whose paths it speaks of, relative to the root ("" for the root)
    std::vector<IgnoreRule> rules;

    static IgnoreFile parse(std::string_view text, std::string path, std::string directory);

    // The last rule that matches `relative` (a path below `directory`, relative to it), or nullptr.
    const IgnoreRule* last_match(std::string_view relative, bool is_directory, bool fold_case) const;
};

struct IgnoreVerdict {
    const IgnoreRule* rule = nullptr;  // the rule that ignores it
    const IgnoreFile* file = nullptr;  // where that rule is written
    std::string ignored_path;          // the path the rule matched: the file itself or a folder above it
};

// Whether `relative` (relative to the root, '/'-separated, no `.` or `..`) is ignored by `files`
// (ordered from the root down; each applies to the paths under its `directory`). As in git: a
// deeper file's rules override a shallower one's, a later rule overrides an earlier one, and
// nothing inside an ignored folder can be re-included. nullopt when it is not ignored.
std::optional<IgnoreVerdict> ignored(const std::vector<const IgnoreFile*>& files, std::string_view relative,
                                     bool is_directory, bool fold_case);

}  // namespace os
