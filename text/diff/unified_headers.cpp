// Reading unified-diff header lines.
#include "text/diff/unified_headers.hpp"

#include "text/bytes/lines.hpp"
#include "text/paths/path_quoting.hpp"

namespace text {

namespace {

// "N" or "N,M" at s[*at]; advances *at.
bool parse_range(std::string_view s, std::size_t* at, std::optional<std::size_t>* start,
                 std::optional<std::size_t>* count) {
    auto number = [&](std::optional<std::size_t>* out) {
        std::size_t digits = 0, n = 0;
        while (*at < s.size() && s[*at] >= '0' && s[*at] <= '9') {
            if (digits < 12) n = n * 10 + static_cast<std::size_t>(s[*at] - '0');
            ++digits;
            ++*at;
        }
        if (digits == 0 || digits > 12) return false;
        *out = n;
        return true;
    };
    if (!number(start)) return false;
    if (*at < s.size() && s[*at] == ',') {
        ++*at;
        if (!number(count)) return false;
    } else {
        *count = 1;
    }
    return true;
}

}  // namespace

// "@@ -a,b +c,d @@ section": the numbers when they are there and well formed, none otherwise.
HunkHeader parse_hunk_header(std::string_view line) {
    HunkHeader h;
    std::size_t at = 2;
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size() || line[at] != '-') return h;
    ++at;
    HunkHeader parsed;
    if (!parse_range(line, &at, &parsed.old_start, &parsed.old_count)) return h;
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size() || line[at] != '+') return h;
    ++at;
    if (!parse_range(line, &at, &parsed.new_start, &parsed.new_count)) return h;
    while (at < line.size() && line[at] == ' ') ++at;
    if (line.substr(at).starts_with("@@")) return parsed;
    return h;
}

std::string quote_path(std::string_view prefix, std::string_view name) {
    const std::string whole = std::string(prefix) + std::string(name);
    return quoted_path(whole, !whole.empty() && (whole.front() == ' ' || whole.back() == ' '));
}

// The name on a "--- " / "+++ " line (after the marker): quoted, or up to a tab, trailing blanks cut.
std::string header_name(std::string_view rest) {
    std::size_t i = 0;
    while (i < rest.size() && rest[i] == ' ') ++i;
    rest.remove_prefix(i);
    if (!rest.empty() && rest[0] == '"') {
        std::size_t at = 0;
        if (auto name = unquote(rest, &at)) return *name;
    }
    const std::size_t tab = rest.find('\t');
    if (tab != std::string_view::npos) rest = rest.substr(0, tab);
    return std::string(trim_right(rest));
}

std::string strip_prefix(std::string name, char side) {
    if (name.size() > 2 && name[0] == side && name[1] == '/') name.erase(0, 2);
    return name;
}

}  // namespace text
