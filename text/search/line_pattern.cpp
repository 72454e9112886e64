// Compiling a grep pattern with PCRE2: the options it is compiled with, the message a model can act
// on when it is not valid, and whether it could see past a line's ends (then every line is matched
// as its own subject).
#include "text/search/line_search.hpp"

#include <cctype>
#include <cstring>
#include <memory>
#include <string>

#include "text/bytes/file_facts.hpp"
#include "text/search/line_pattern_code.hpp"

namespace text {

namespace {

std::string pcre2_message(int code) {
    PCRE2_UCHAR buffer[256];
    const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
    if (n < 0) return "error " + std::to_string(code);
    return std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(n));
}

// `pattern` with every character PCRE2 treats as special escaped: the same text, searched as written.
std::string escaped(std::string_view pattern) {
    std::string out;
    for (const char c : pattern) {
        if (std::strchr("\\^$.|?*+()[]{}", c) && c != '\0') out += '\\';
        out += c;
    }
    return out;
}

std::string pattern_error(std::string_view pattern, int code, std::size_t offset) {
    std::string shown(pattern.substr(0, 200));
    std::string message = "The pattern is not a valid regular expression (PCRE2 syntax): " + pcre2_message(code) +
                          ", at offset " + std::to_string(offset) + " of `" + to_valid_utf8(shown) + "`";
    if (pattern.size() > shown.size()) message += " (cut)";
    if (offset >= pattern.size()) {
        message += " (at its end)";
    } else if (offset <= shown.size()) {
        const std::string_view before = std::string_view(shown).substr(0, offset);
        message += ", right after `" + to_valid_utf8(before.substr(before.size() > 40 ? before.size() - 40 : 0)) + "`";
    }
    message += ". To search for the text as written, call grep again with literal: true";
    if (pattern.size() <= 200)
        message += " (or with its special characters escaped: pattern `" + to_valid_utf8(escaped(pattern)) + "`)";
    message += ".";
    return message;
}

// Whether a match of `pattern` run over the whole file could differ from its matches on each line
// alone in a way the confirmation of hits cannot repair, i.e. a line that matches alone might not
// be found: assertions that look outside the match (lookaround; \A \Z \z \G), groups that do not
// give back what they took (atomic groups, possessive quantifiers: on the whole file they may eat
// the line end), backtracking verbs and leading options (*...), and options that turn multiline
// off ((?-m), (?^)). Conservative: the words are looked for in the pattern's text as written
// (an escaped or bracketed `(?=` too), and a false alarm costs only speed.
bool sees_past_line(std::string_view pattern) {
    for (const std::string_view word :
         {"(?=", "(?!", "(?<=", "(?<!", "(?*", "(?<*", "(?>", "(*", "\\A", "\\Z", "\\z", "\\G", "*+", "++", "?+", "}+"})
        if (pattern.find(word) != std::string_view::npos) return true;
    // (?-m) (?i-m:...) (?^) (?^i): an option group that unsets options (multiline among them, maybe).
    for (std::size_t at = pattern.find("(?"); at != std::string_view::npos; at = pattern.find("(?", at + 2)) {
        std::size_t i = at + 2;
        bool unsets = false;
        while (i < pattern.size() &&
               (std::isalpha(static_cast<unsigned char>(pattern[i])) || pattern[i] == '-' || pattern[i] == '^')) {
            unsets = unsets || pattern[i] == '-' || pattern[i] == '^';
            ++i;
        }
        if (unsets && i < pattern.size() && (pattern[i] == ')' || pattern[i] == ':')) return true;
    }
    return false;
}

}  // namespace

base::Result<LinePattern, std::string> LinePattern::compile(std::string_view pattern, PatternOptions options) {
    // Multiline: the whole file is one subject, and ^ and $ meet every line's ends (a literal has neither).
    // Offset limit: each call tries a bounded run of start positions (see first_slice).
    std::uint32_t flags = (options.literal ? PCRE2_LITERAL : PCRE2_MULTILINE) | PCRE2_USE_OFFSET_LIMIT;
    if (options.case_insensitive) flags |= PCRE2_CASELESS;
    // UTF mode (`.` is a character, case folding beyond ASCII) when the pattern is UTF-8; files
    // with invalid bytes are still searched (such a byte is never part of a match).
    if (is_valid_utf8(pattern)) flags |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

    pcre2_compile_context* context = pcre2_compile_context_create(nullptr);
    if (!context) return base::fail(std::string("PCRE2 could not allocate a compile context (out of memory)"));
    pcre2_set_newline(context, PCRE2_NEWLINE_ANYCRLF);  // ^, $ and . know LF, CRLF and lone CR, as read does
    int error = 0;
    PCRE2_SIZE error_offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), flags, &error,
                                     &error_offset, context);
    pcre2_compile_context_free(context);
    if (!code) return base::fail(pattern_error(pattern, error, error_offset));

    auto compiled = std::make_shared<Code>();
    compiled->code = code;
    compiled->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    compiled->utf = (flags & PCRE2_UTF) != 0;
    compiled->each_line_alone = !options.literal && sees_past_line(pattern);
    std::uint32_t lookbehind = 0;
    if (pcre2_pattern_info(code, PCRE2_INFO_MAXLOOKBEHIND, &lookbehind) == 0) compiled->looks_behind = lookbehind > 0;
    LinePattern out;
    out.code_ = std::move(compiled);
    out.source_ = std::string(pattern);
    return out;
}

bool LinePattern::each_line_alone() const { return code_->each_line_alone; }

}  // namespace text
