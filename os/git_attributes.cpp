// git_eol_for: .gitattributes read up to the repository's top, the eol its lines give a path.
#include "os/git_attributes.hpp"

#include <string_view>
#include <vector>

#include "os/file_reads.hpp"
#include "os/file_status.hpp"
#include "os/paths.hpp"
#include "text/paths/glob.hpp"

namespace os {

namespace {

constexpr std::size_t max_lines = 10000;
constexpr std::size_t max_line = 4096;
constexpr int max_depth = 256;

// What one matching line says of the eol: nothing, an eol, or conversion off.
enum class Say { nothing, lf, crlf, off };

// What `attributes` (the words after the pattern) say of eol, the last word winning.
Say says(std::string_view attributes) {
    Say out = Say::nothing;
    std::size_t at = 0;
    while (at < attributes.size()) {
        const std::size_t begin = attributes.find_first_not_of(" \t\r", at);
        if (begin == std::string_view::npos) break;
        const std::size_t end = std::min(attributes.size(), attributes.find_first_of(" \t\r", begin));
        const std::string_view word = attributes.substr(begin, end - begin);
        at = end;
        if (word == "eol=lf")
            out = Say::lf;
        else if (word == "eol=crlf")
            out = Say::crlf;
        else if (word == "-text" || word == "binary")
            out = Say::off;
        else if (word == "-eol" || word == "!eol")
            out = Say::off;
    }
    return out;
}

// The last line of `text` (a .gitattributes of the folder `relative` below) matching `path`
// (relative to that folder) that says something of eol.
Say last_say(std::string_view text, std::string_view path) {
    Say out = Say::nothing;
    std::size_t lines = 0, at = 0;
    while (at < text.size() && lines++ < max_lines) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.size() > max_line) continue;
        const std::size_t begin = line.find_first_not_of(" \t");
        if (begin == std::string_view::npos) continue;
        line.remove_prefix(begin);
        // Comments, macros, negative patterns (git refuses them) and quoted patterns are skipped.
        if (line.front() == '#' || line.front() == '!' || line.front() == '"' || line.starts_with("[attr]")) continue;
        const std::size_t split = std::min(line.size(), line.find_first_of(" \t"));
        std::string_view pattern = line.substr(0, split);
        const Say say = says(line.substr(split));
        if (say == Say::nothing || pattern.empty() || pattern.back() == '/') continue;
        const bool anchored = pattern.find('/') != std::string_view::npos;
        if (pattern.front() == '/') pattern.remove_prefix(1);
        if (text::glob_match(pattern, anchored ? path : name_of(path))) out = say;
    }
    return out;
}

std::string read_small(const std::string& path) {
    auto read = read_regular_file(path, max_gitattributes_size);
    return read ? std::move(read->bytes) : std::string();
}

}  // namespace

std::string git_eol_for(const std::string& real_path) {
    // The folders from the file's up to the repository's top (the first with a .git).
    std::vector<std::string> folders;
    std::string folder = parent_of(real_path);
    std::string top;
    for (int depth = 0; depth < max_depth && !folder.empty(); ++depth) {
        folders.push_back(folder);
        if (stat_path(folder + "/.git").kind != FileKind::missing) {
            top = folder;
            break;
        }
        const std::string up = parent_of(folder);
        if (up == folder) break;
        folder = up;
    }
    if (top.empty()) return "";
    Say said = Say::nothing;
    // From the top down: a deeper file's line overrides.
    for (auto it = folders.rbegin(); it != folders.rend(); ++it) {
        const std::string text = read_small(*it + "/.gitattributes");
        if (text.empty()) continue;
        const std::string_view below =
            std::string_view(real_path).substr(it->back() == '/' ? it->size() : it->size() + 1);
        if (const Say say = last_say(text, below); say != Say::nothing) said = say;
    }
    if (stat_path(top + "/.git").kind == FileKind::directory) {
        const std::string text = read_small(top + "/.git/info/attributes");
        if (const Say say =
                last_say(text, std::string_view(real_path).substr(top.back() == '/' ? top.size() : top.size() + 1));
            say != Say::nothing)
            said = say;
    }
    switch (said) {
        case Say::lf: return "lf";
        case Say::crlf: return "crlf";
        case Say::off:
        case Say::nothing: break;
    }
    return "";
}

}  // namespace os
