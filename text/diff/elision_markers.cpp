// Elision markers found by their shape (a comment, or a bracketed or bare ellipsis, alone on its
// line) and their words (a closed vocabulary that says "left out"), so that a real comment such as
// "# rest of the world" is not one. Whether a change drops real lines for one: elision.cpp.
#include "text/diff/elision.hpp"

#include "base/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <span>
#include <unordered_set>

namespace text {

namespace {

constexpr std::string_view bom = "\xEF\xBB\xBF";
constexpr std::string_view unicode_ellipsis = "\xE2\x80\xA6";  // …

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool starts_with_nocase(std::string_view s, std::string_view p) {
    if (s.size() < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (base::ascii_lower(s[i]) != p[i]) return false;
    return true;
}

// Comment syntax around a line's text: an opener and the closer it may end with ("" for line comments).
struct CommentSyntax {
    std::string_view open;
    std::string_view close;
};
// Longest openers first, so that "{/*" is not read as "{" and "///" not as "//".
constexpr std::array<CommentSyntax, 16> comment_syntaxes{{
    {"{/*", "*/}"},        // JSX
    {"<!--", "-->"},       // HTML, XML, Markdown
    {"\"\"\"", "\"\"\""},  // Python docstring
    {"'''", "'''"},
    {"/*", "*/"},  // C family, CSS
    {"(*", "*)"},  // OCaml, Pascal
    {"{-", "-}"},  // Haskell
    {"//", ""},    // C family, JS, Go, Rust
    {"--", "--"},  // SQL, Lua, Haskell; "-- snip --"
    {"#", ""},     // shell, Python, Ruby, YAML, TOML
    {";", ""},     // Lisp, assembly, INI
    {"%", ""},     // LaTeX, Erlang, MATLAB
    {"'", ""},     // VB
    {"::", ""},    // batch
    {"!", ""},     // Fortran
    {"rem ", ""},  // batch (any case)
}};

// The text of a comment line without its syntax; nullopt when the line is no comment.
std::optional<std::string_view> comment_text(std::string_view s) {
    for (const auto& syntax : comment_syntaxes) {
        const bool opens = syntax.open == "rem "
                               ? starts_with_nocase(s, "rem ") || (s.size() == 3 && starts_with_nocase(s, "rem"))
                               : starts_with(s, syntax.open);
        if (!opens) continue;
        s.remove_prefix(std::min(s.size(), syntax.open.size()));
        // Repeated line-comment characters ("##", ";;", "///", "%%") and doc-comment marks ("/**", "//!").
        if (syntax.close.empty() && syntax.open.size() <= 2)
            while (!s.empty() && (s.front() == syntax.open.front() || s.front() == '!' || s.front() == '/'))
                s.remove_prefix(1);
        if (syntax.open == "/*" || syntax.open == "{/*")
            while (!s.empty() && (s.front() == '*' || s.front() == '!')) s.remove_prefix(1);
        s = trim(s);
        if (!syntax.close.empty() && ends_with(s, syntax.close)) s = trim(s.substr(0, s.size() - syntax.close.size()));
        return s;
    }
    return std::nullopt;
}

// Words that say, alone, that code is left out.
bool strong_word(std::string_view w) {
    static const std::unordered_set<std::string_view> words{
        "rest", "remaining", "remainder",   "existing", "unchanged", "unmodified", "untouched", "omitted",
        "omit", "omitting",  "truncated",   "snip",     "snipped",   "elided",     "elide",     "previous",
        "etc",  "brevity",   "abbreviated", "skipped",  "redacted",  "elision",    "ellipsis"};
    return words.contains(w);
}

// The strong words that name the leaving out itself (not a state a sentence can report, such as
// "unchanged" in "the file is unchanged").
bool core_word(std::string_view w) {
    static const std::unordered_set<std::string_view> words{
        "rest",   "remaining", "remainder", "omitted", "omit",        "omitting", "truncated", "snip",    "snipped",
        "elided", "elide",     "etc",       "brevity", "abbreviated", "skipped",  "redacted",  "elision", "ellipsis"};
    return words.contains(w);
}

bool copula(std::string_view w) {
    return w == "is" || w == "are" || w == "was" || w == "were" || w == "be" || w == "been";
}

// Words an elision says besides those: what is left out and how it stays.
bool filler_word(std::string_view w) {
    static const std::unordered_set<std::string_view> words{
        // what
        "code", "file", "files", "script", "module", "modules", "class", "classes", "component", "components",
        "function", "functions", "method", "methods", "line", "lines", "content", "contents", "implementation",
        "implementations", "body", "bodies", "logic", "import", "imports", "definition", "definitions", "declaration",
        "declarations", "field", "fields", "property", "properties", "test", "tests", "case", "cases", "helper",
        "helpers", "handler", "handlers", "route", "routes", "style", "styles", "config", "configuration", "setting",
        "settings", "option", "options", "section", "sections", "part", "parts", "block", "blocks", "stuff", "things",
        "markup", "html", "css", "text", "document", "page", "template", "program", "source", "functionality", "member",
        "members", "endpoint", "endpoints", "rule", "rules", "statement", "statements", "interface", "interfaces",
        "struct", "structs", "hooks", "props", "first", "original", "earlier", "old", "other", "others", "more", "same",
        "identical", "exactly", "similar",
        // how
        "the", "a", "an", "of", "in", "on", "at", "to", "for", "from", "with", "here", "there", "this", "that", "these",
        "those", "is", "are", "was", "were", "be", "been", "will", "would", "should", "remain", "remains", "remained",
        "stay", "stays", "stayed", "keep", "keeps", "kept", "goes", "go", "and", "or", "as", "before", "all", "your",
        "my", "our", "its", "it", "so", "like", "still", "left", "out", "not", "shown", "no", "change", "changes",
        "changed", "needed", "continue", "continues", "continued", "s", "unchanged", "above", "below"};
    return words.contains(w);
}

// Two words that together say it: "as before", "no changes", "code here", "other methods".
bool strong_pair(std::string_view a, std::string_view b) {
    if (a == "as" && (b == "before" || b == "is")) return true;
    if (a == "same" && b == "as") return true;
    if (a == "no" && (b == "changes" || b == "change")) return true;
    if ((a == "remain" || a == "remains" || a == "stay" || a == "stays") && (b == "same" || b == "unchanged"))
        return true;
    if (a == "code" && b == "here") return true;
    if (a == "other") {
        static const std::unordered_set<std::string_view> nouns{
            "methods",  "functions", "code",        "fields",       "imports", "properties", "helpers",
            "routes",   "handlers",  "tests",       "cases",        "classes", "components", "styles",
            "sections", "settings",  "options",     "endpoints",    "rules",   "members",    "functionality",
            "logic",    "stuff",     "definitions", "declarations", "lines",   "entries",    "items"};
        return nouns.contains(b);
    }
    return false;
}

// A line's words, lowercased into a buffer of its own (a marker is short: a line of over 200
// bytes or 32 words is none), without an allocation per word: a big file has many comments.
struct Words {
    Words() = default;
    Words(const Words&) = delete;  // the words point into `text`
    Words& operator=(const Words&) = delete;

    std::array<char, 256> text{};
    std::size_t used = 0;
    std::array<std::string_view, 32> list{};
    std::size_t count = 0;
    bool too_many = false;
    bool ellipsis = false;           // "...", "…" or ". . ." anywhere
    bool leading_ellipsis = false;   // before the first word
    bool trailing_ellipsis = false;  // after the last word
    bool other_marks = false;        // punctuation besides brackets, dots and separators (code, not prose)

    std::span<const std::string_view> words() const { return {list.data(), count}; }
};

// Fills `out` (fresh) with the words of `s` (at most 200 bytes).
void words_of(std::string_view s, Words& out) {
    std::size_t word_start = out.used;
    bool seen_word = false;
    const auto end_word = [&] {
        if (out.used > word_start) {
            if (out.count == out.list.size())
                out.too_many = true;
            else
                out.list[out.count++] = std::string_view(out.text.data() + word_start, out.used - word_start);
        }
        word_start = out.used;
    };
    const auto add = [&](char c) {
        if (out.used < out.text.size())
            out.text[out.used++] = c;
        else
            out.too_many = true;
        seen_word = true;
        out.trailing_ellipsis = false;
    };
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const bool dots = starts_with(s.substr(i), "...") || starts_with(s.substr(i), ". . .");
        if (dots || starts_with(s.substr(i), unicode_ellipsis)) {
            end_word();
            out.ellipsis = true;
            if (!seen_word) out.leading_ellipsis = true;
            out.trailing_ellipsis = true;
            i += dots ? (s[i + 1] == '.' ? 3 : 5) : unicode_ellipsis.size();
            while (i < s.size() && s[i] == '.') ++i;
            continue;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            add(base::ascii_lower(static_cast<char>(c)));
            ++i;
            continue;
        }
        if (c >= 0x80) {
            // U+2000..U+206F (dashes, quotes, bullets) separate words; other non-ASCII is a word's.
            if (c == 0xE2 && i + 1 < s.size() &&
                (static_cast<unsigned char>(s[i + 1]) == 0x80 || static_cast<unsigned char>(s[i + 1]) == 0x81)) {
                end_word();
                i += 3;
                continue;
            }
            add(static_cast<char>(c));
            ++i;
            continue;
        }
        end_word();
        static constexpr std::string_view separators = " \t()[]{}<>:,.-!?\"'`*_/|~";
        if (separators.find(static_cast<char>(c)) == std::string_view::npos) out.other_marks = true;
        ++i;
    }
    end_word();
}

bool is_number(std::string_view w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether the words of a comment (or of a bracketed or ellipsis-wrapped line) say code is left out.
bool says_left_out(const Words& w) {
    const auto words = w.words();
    if (w.too_many) return false;
    if (words.empty()) return w.ellipsis;  // "# ...", "/* ... */", "<!-- … -->"
    if (w.other_marks) return false;       // "= ", ";", "=>": code or an expression, not an elision
    // A sentence that reports a state ("the file is unchanged", "the output is the same as
    // before"), with no ellipsis and no word for leaving out: prose, not an elision.
    if (!w.ellipsis && std::any_of(words.begin(), words.end(), copula) &&
        std::none_of(words.begin(), words.end(), core_word))
        return false;
    bool strong = false;
    std::size_t unknown = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view word = words[i];
        if (strong_word(word) || (i + 1 < words.size() && strong_pair(word, words[i + 1])) ||
            (i + 2 < words.size() && words[i + 1] == "the" && strong_pair(word, words[i + 2])))
            strong = true;
        if (!strong_word(word) && !filler_word(word) && !is_number(word)) ++unknown;
    }
    if (strong && unknown == 0) return true;  // "// existing code here", "# (unchanged)", "<!-- rest of file -->"
    // Between ellipses, any words of the vocabulary: "// ... 50 more lines ...".
    if (w.leading_ellipsis && w.trailing_ellipsis && unknown == 0) return true;
    // After an ellipsis, a name or two of the code left out: "// ... rest of handleRequest unchanged".
    if (strong && w.leading_ellipsis && (w.trailing_ellipsis || unknown <= 2) && words.size() <= 12) return true;
    return false;
}

// A line with no comment syntax: an ellipsis alone ("...", "[...]", "(…)"), or words wrapped in
// brackets ("[rest of file unchanged]", "<snip>") or in ellipses ("... rest of the code ...").
bool bare_marker(std::string_view s) {
    Words w;
    words_of(s, w);
    if (w.count == 0 && !w.too_many) {
        if (!w.ellipsis) return false;
        for (const char c : s)
            if (std::string_view(".[](){}<> ").find(c) == std::string_view::npos &&
                static_cast<unsigned char>(c) < 0x80)
                return false;
        return true;
    }
    const bool bracketed = (starts_with(s, "[") && ends_with(s, "]")) || (starts_with(s, "<") && ends_with(s, ">")) ||
                           (starts_with(s, "(") && ends_with(s, ")"));
    if (bracketed) {
        std::string_view inner = trim(s.substr(1, s.size() - 2));
        // Markdown's "[text](url)" and an HTML tag "<div class=x>" are not wrapped words.
        if (inner.find_first_of("[]()<>=\"/") != std::string_view::npos) return false;
        Words words;
        words_of(inner, words);
        return says_left_out(words);
    }
    return w.leading_ellipsis && w.trailing_ellipsis && says_left_out(w);
}

bool is_bare_ellipsis(std::string_view trimmed) { return trimmed == "..." || trimmed == unicode_ellipsis; }

std::string_view suffix_of(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.rfind('.');
    return dot == std::string_view::npos ? std::string_view() : name.substr(dot);
}

bool suffix_is(std::string_view suffix, std::string_view want) {
    if (suffix.size() != want.size()) return false;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (base::ascii_lower(suffix[i]) != want[i]) return false;
    return true;
}

// A cheap first look at a trimmed line, so that a big file's lines of code and ordinary comments
// cost a byte or a short search each: a marker starts with comment syntax, a bracket, a dot or an
// ellipsis, and holds an ellipsis or a word (a stem) that says something is left out.
bool may_be_marker(std::string_view s) {
    static constexpr std::string_view openers = "#/-;%':!\"[<({.Rr*";
    if (openers.find(s.front()) == std::string_view::npos && static_cast<unsigned char>(s.front()) != 0xE2)
        return false;
    if (s.find("...") != std::string_view::npos || s.find(unicode_ellipsis) != std::string_view::npos ||
        s.find(". . .") != std::string_view::npos)
        return true;
    // At the start of each word, the stems of the words that say it (strong_word, strong_pair).
    static constexpr std::array<std::string_view, 22> stems{
        "rest",   "remain", "existing", "unchanged", "unmodified", "untouched", "omit",      "truncat",
        "snip",   "elide",  "elision",  "previous",  "etc",        "brevity",   "abbreviat", "skipped",
        "redact", "before", "same",     "change",    "here",       "other"};
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!letter(s[i]) || (i > 0 && (letter(s[i - 1]) || (s[i - 1] >= '0' && s[i - 1] <= '9')))) continue;
        const char first = base::ascii_lower(s[i]);
        for (const auto stem : stems) {
            if (stem.front() != first || s.size() - i < stem.size()) continue;
            bool same = true;
            for (std::size_t k = 1; k < stem.size() && same; ++k) same = base::ascii_lower(s[i + k]) == stem[k];
            if (same) return true;
        }
    }
    return false;
}

}  // namespace

bool is_elision_marker(std::string_view line) {
    const std::string_view s = trim(line);
    if (s.empty() || s.size() > 200 || !may_be_marker(s)) return false;
    if (auto comment = comment_text(s)) {
        // "#!/bin/sh", "#include", "#[derive]", "--flag", "'quoted'": a comment's text starts with a
        // space, an ellipsis or a bracket, or is nothing but the comment.
        Words words;
        words_of(*comment, words);
        return says_left_out(words) &&
               (comment->empty() ||
                !((s.front() == '#' && s.size() > 1 &&
                   (s[1] == '!' || s[1] == '[' || std::isalpha(static_cast<unsigned char>(s[1])))) ||
                  (starts_with(s, "--") && s.size() > 2 && std::isalpha(static_cast<unsigned char>(s[2])))));
    }
    return bare_marker(s);
}

bool has_elision_marker(std::string_view text) {
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        if (is_elision_marker(text.substr(0, nl))) return true;
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    return false;
}

std::vector<std::size_t> elision_marker_lines(std::string_view text, std::string_view path) {
    const std::string_view suffix = suffix_of(path);
    const bool stub = suffix_is(suffix, ".pyi");
    const bool yaml = suffix_is(suffix, ".yaml") || suffix_is(suffix, ".yml");
    std::vector<std::size_t> out;
    std::string_view previous;  // the last non-blank line before this one, trimmed
    if (starts_with(text, bom)) text.remove_prefix(bom.size());
    // Line by line without a list of them: a big file costs no more memory than it has.
    for (std::size_t i = 0; !text.empty(); ++i) {
        const std::size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        const std::string_view trimmed = trim(line);
        if (trimmed.empty()) continue;
        if (is_elision_marker(line)) {
            bool real = false;
            if (is_bare_ellipsis(trimmed)) {
                real = stub || (yaml && starts_with(line, trimmed)) || ends_with(previous, ":") ||
                       starts_with(previous, ">>>") ||
                       (starts_with(previous, "...") && previous.size() > 3 && previous[3] == ' ');
            }
            if (!real) out.push_back(i);
        }
        previous = trimmed;
    }
    return out;
}

}  // namespace text
