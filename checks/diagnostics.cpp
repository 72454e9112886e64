// Diagnostics parsers (one regular expression per output form) and the new-versus-fixed count.
#include "checks/diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <tuple>

#include "text/bytes/file_facts.hpp"

namespace checks {

namespace {

// Lines longer than this are not parsed (std::regex recurses per character).
constexpr std::size_t max_parsed_line = 4096;

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::size_t number(const std::ssub_match& m) {
    std::size_t n = 0;
    for (const char c : m.str()) {
        if (n > 100000000) break;
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    return n;
}

std::string severity_of(std::string word) {
    word = lower(std::move(word));
    if (word == "fatal error") return "error";
    if (word == "message") return "info";
    return word;
}

std::string absolute(std::string file, const std::string& directory) {
    if (file.empty() || file[0] == '/' || directory.empty()) return file;
    if (file.rfind("./", 0) == 0) file.erase(0, 2);
    return directory + (directory.back() == '/' ? "" : "/") + file;
}

}  // namespace

std::vector<Diagnostic> parse_diagnostics(std::string_view output, const std::string& checked_file,
                                          const std::string& directory) {
    static const std::regex gcc(
        R"re(^(.+?):(\d+):(?:(\d+):)? ?(fatal error|error|warning|note|remark|info|hint): (.*)$)re", std::regex::icase);
    static const std::regex tsc(R"re(^(.+?)\((\d+),(\d+)\): (error|warning|info|message) (TS\d+: .*)$)re");
    static const std::regex eslint_unix(R"re(^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)/[^\]]*\]$)re");
    static const std::regex eslint_compact(R"re(^(.+?): line (\d+), col (\d+), (Error|Warning) - (.*)$)re");
    static const std::regex python_frame(R"re(^\s*File "(.+)", line (\d+))re");
    static const std::regex python_error(
        R"re(^(?:Sorry: )?([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Warning)): ?(.*)$)re");
    static const std::regex python_json(R"re(^(.+): line (\d+) column (\d+) \(char \d+\)$)re");

    std::vector<Diagnostic> found;
    std::string frame_file;  // the last `File "x", line N` of a traceback not yet closed
    std::size_t frame_line = 0;
    std::size_t begin = 0;
    while (begin < output.size() && found.size() < max_diagnostics) {
        std::size_t end = output.find('\n', begin);
        if (end == std::string_view::npos) end = output.size();
        std::string_view view = output.substr(begin, end - begin);
        begin = end + 1;
        if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
        if (view.size() > max_parsed_line) continue;
        const std::string line(view);
        std::smatch m;
        Diagnostic d;
        if (std::regex_match(line, m, tsc)) {
            d = {absolute(m[1], directory), number(m[2]), number(m[3]), severity_of(m[4]), m[5], {}};
        } else if (std::regex_match(line, m, eslint_compact)) {
            d = {absolute(m[1], directory), number(m[2]), number(m[3]), severity_of(m[4]), m[5], {}};
        } else if (std::regex_match(line, m, eslint_unix)) {
            d = {absolute(m[1], directory), number(m[2]), number(m[3]), severity_of(m[5]), m[4], {}};
        } else if (std::regex_match(line, m, gcc)) {
            d = {absolute(m[1], directory), number(m[2]), m[3].matched ? number(m[3]) : 0, severity_of(m[4]), m[5], {}};
        } else if (std::regex_search(line, m, python_frame)) {
            frame_file = absolute(m[1], directory);
            frame_line = number(m[2]);
            continue;
        } else if (!frame_file.empty() && std::regex_match(line, m, python_error)) {
            const std::string kind = m[1];
            const bool warning = kind.size() >= 7 && kind.compare(kind.size() - 7, 7, "Warning") == 0;
            d = {frame_file,
                 frame_line,
                 0,
                 warning ? "warning" : "error",
                 line.rfind("Sorry: ", 0) == 0 ? line.substr(7) : line,
                 {}};
            frame_file.clear();
        } else if (std::regex_match(line, m, python_json)) {
            d = {checked_file, number(m[2]), number(m[3]), "error", m[1], {}};
        } else {
            continue;
        }
        found.push_back(std::move(d));
    }
    return found;
}

void attach_line_text(std::vector<Diagnostic>& found, const std::string& file, std::string_view bytes) {
    std::vector<std::size_t> wanted;
    for (const auto& d : found)
        if (d.file == file && d.line > 0) wanted.push_back(d.line);
    if (wanted.empty()) return;
    const std::size_t last = *std::max_element(wanted.begin(), wanted.end());
    std::map<std::size_t, std::string_view> texts;
    std::size_t n = 0;
    text::for_each_line(bytes, [&](const text::LineSpan& span) {
        ++n;
        if (std::find(wanted.begin(), wanted.end(), n) != wanted.end())
            texts[n] = trim(bytes.substr(span.begin, span.end - span.begin));
        return n < last;
    });
    for (auto& d : found)
        if (d.file == file)
            if (auto it = texts.find(d.line); it != texts.end()) d.line_text = std::string(it->second);
}

DiagnosticChanges compare_diagnostics(const std::vector<Diagnostic>& before, const std::vector<Diagnostic>& after) {
    using Key = std::tuple<std::string, std::string, std::string, std::string>;
    const auto key = [](const Diagnostic& d) { return Key{d.file, d.severity, d.message, d.line_text}; };
    std::map<Key, std::size_t> old_count;
    for (const auto& d : before) ++old_count[key(d)];
    DiagnosticChanges out;
    out.is_new.reserve(after.size());
    for (const auto& d : after) {
        auto it = old_count.find(key(d));
        const bool known = it != old_count.end() && it->second > 0;
        if (known) --it->second;
        out.is_new.push_back(!known);
    }
    for (const auto& d : before) {  // what remains unmatched was fixed
        auto it = old_count.find(key(d));
        if (it != old_count.end() && it->second > 0) {
            --it->second;
            out.fixed.push_back(d);
        }
    }
    return out;
}

}  // namespace checks
