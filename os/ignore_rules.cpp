// Parsing gitignore lines and deciding a path, folder by folder from the root down.
#include "os/ignore_rules.hpp"

#include "os/paths.hpp"
#include "text/paths/glob.hpp"

namespace os {

namespace {

// `line` without the trailing spaces that are not escaped.
std::string_view trim_trailing_spaces(std::string_view line) {
    std::size_t end = line.size();
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
        std::size_t backslashes = 0;
        for (std::size_t k = end - 1; k > 0 && line[k - 1] == '\\'; --k) ++backslashes;
        if (backslashes % 2 == 1) break;  // `\ `: the space is part of the pattern
        --end;
    }
    return line.substr(0, end);
}

// Is `dir` ("" or "a/b") a folder above `path`?
bool folder_holds(std::string_view dir, std::string_view path) {
    if (dir.empty()) return true;
    return path.size() > dir.size() && path.substr(0, dir.size()) == dir && path[dir.size()] == '/';
}

}  // namespace

IgnoreFile IgnoreFile::parse(std::string_view text, std::string path, std::string directory) {
    IgnoreFile file;
    file.path = std::move(path);
    file.directory = std::move(directory);
    std::size_t line_number = 0;
    std::size_t at = 0;
    while (at < text.size() && file.rules.size() < max_rules) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        ++line_number;
        if (line_number == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.size() > max_line) continue;
        line = trim_trailing_spaces(line);
        if (line.empty() || line[0] == '#') continue;
        IgnoreRule rule;
        rule.text = std::string(line);
        rule.line = line_number;
        std::string_view p = line;
        if (p[0] == '!') {
            rule.negated = true;
            p.remove_prefix(1);
        } else if (p.size() > 1 && p[0] == '\\' && (p[1] == '!' || p[1] == '#')) {
            p.remove_prefix(1);
        }
        if (!p.empty() && p.back() == '/') {
            rule.directory_only = true;
            while (!p.empty() && p.back() == '/') p.remove_suffix(1);
        }
        rule.anchored = p.find('/') != std::string_view::npos;
        while (!p.empty() && p.front() == '/') p.remove_prefix(1);
        if (p.empty()) continue;  // `/` or `!`: nothing to match
        rule.pattern = std::string(p);
        file.rules.push_back(std::move(rule));
    }
    return file;
}

const IgnoreRule* IgnoreFile::last_match(std::string_view relative, bool is_directory, bool fold_case) const {
    const std::string_view name = os::name_of(relative);
    for (auto rule = rules.rbegin(); rule != rules.rend(); ++rule) {
        if (rule->directory_only && !is_directory) continue;
        if (text::glob_match(rule->pattern, rule->anchored ? relative : name, fold_case)) return &*rule;
    }
    return nullptr;
}

std::optional<IgnoreVerdict> ignored(const std::vector<const IgnoreFile*>& files, std::string_view relative,
                                     bool is_directory, bool fold_case) {
    // Each folder on the way down, then the path itself: the first one ignored decides.
    std::size_t end = 0;
    while (end != std::string_view::npos) {
        end = relative.find('/', end + 1);
        const std::string_view prefix = relative.substr(0, end);
        const bool prefix_is_directory = end != std::string_view::npos || is_directory;
        for (auto file = files.rbegin(); file != files.rend(); ++file) {
            if (!folder_holds((*file)->directory, prefix)) continue;
            const std::string_view below =
                (*file)->directory.empty() ? prefix : prefix.substr((*file)->directory.size() + 1);
            const IgnoreRule* rule = (*file)->last_match(below, prefix_is_directory, fold_case);
            if (!rule) continue;
            if (!rule->negated) return IgnoreVerdict{rule, *file, std::string(prefix)};
            break;  // re-included here: deeper files decided, shallower ones do not count
        }
    }
    return std::nullopt;
}

}  // namespace os
