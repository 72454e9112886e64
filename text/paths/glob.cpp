// glob_match: the pattern as tokens, run over the text as a set of reachable positions.
#include "text/paths/glob.hpp"

#include "text/bytes/lines.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace text {

namespace {

base::Unexpected<base::Failure> bad_glob(std::string message) {
    return base::fail(base::Failure{std::move(message), base::ErrorReason::invalid_arguments});
}

// Finds the first top-level `{...}` holding a top-level `,` in `p` from `from`; returns its
// open and close positions and the commas, or false.
bool find_braces(std::string_view p, std::size_t& open, std::size_t& close, std::vector<std::size_t>& commas) {
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\') {
            ++i;
            continue;
        }
        if (p[i] != '{') continue;
        int depth = 0;
        std::vector<std::size_t> found;
        for (std::size_t j = i; j < p.size(); ++j) {
            if (p[j] == '\\') {
                ++j;
                continue;
            }
            if (p[j] == '{')
                ++depth;
            else if (p[j] == '}' && --depth == 0) {
                if (found.empty()) break;  // `{x}` stays literal; look for the next brace
                open = i;
                close = j;
                commas = std::move(found);
                return true;
            } else if (p[j] == ',' && depth == 1)
                found.push_back(j);
        }
    }
    return false;
}

// How many alternatives `p` expands to, or `limit + 1` once that is passed: counted on the pattern
// itself, group after group (each holds two or more alternatives, so a chain of groups passes any
// limit within a few of them), never by expanding: `{a,b}` written 16,000 times costs one short
// scan instead of 16,000 copies of the pattern on the stack (issue 39).
std::size_t count_alternatives(std::string_view p, std::size_t limit) {
    std::size_t total = 1;
    for (;;) {
        std::size_t open = 0, close = 0;
        std::vector<std::size_t> commas;
        if (!find_braces(p, open, close, commas)) return total;
        std::size_t group = 0;
        std::size_t start = open + 1;
        commas.push_back(close);
        for (const std::size_t end : commas) {
            group += count_alternatives(p.substr(start, end - start), limit);
            if (group > limit) return limit + 1;
            start = end + 1;
        }
        if (total > limit / group) return limit + 1;
        total *= group;
        p = p.substr(close + 1);
    }
}

bool expand(std::string pattern, std::vector<std::string>& out) {
    std::size_t open = 0, close = 0;
    std::vector<std::size_t> commas;
    if (!find_braces(pattern, open, close, commas)) {
        if (out.size() >= Glob::max_alternatives) return false;
        out.push_back(std::move(pattern));
        return true;
    }
    const std::string head = pattern.substr(0, open), tail = pattern.substr(close + 1);
    std::size_t start = open + 1;
    commas.push_back(close);
    for (const std::size_t end : commas) {
        if (!expand(head + pattern.substr(start, end - start) + tail, out)) return false;
        start = end + 1;
    }
    return true;
}

char fold(char c, bool fold_case) { return fold_case && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// One element of a brace-free pattern.
struct Token {
    enum class Kind { literal, any, set, star, globstar, globstar_dir } kind = Kind::literal;
    char c = 0;
    std::string set;  // Kind::set: the characters, ranges expanded (folded when folding)
    bool negated = false;
};

std::vector<Token> tokenize(std::string_view p, bool fold_case) {
    std::vector<Token> tokens;
    for (std::size_t i = 0; i < p.size(); ++i) {
        Token t;
        if (p[i] == '\\' && i + 1 < p.size()) {
            t.c = fold(p[++i], fold_case);
        } else if (p[i] == '?') {
            t.kind = Token::Kind::any;
        } else if (p[i] == '*') {
            const std::size_t first = i;
            while (i + 1 < p.size() && p[i + 1] == '*') ++i;
            const bool whole_component = (first == 0 || p[first - 1] == '/') && (i + 1 == p.size() || p[i + 1] == '/');
            if (i == first || !whole_component) {
                t.kind = Token::Kind::star;
            } else if (i + 1 < p.size()) {
                ++i;  // `**/`
                t.kind = Token::Kind::globstar_dir;
            } else {
                t.kind = Token::Kind::globstar;
            }
        } else if (p[i] == '[' && i + 2 < p.size() && p.find(']', i + 2) != std::string_view::npos) {
            std::size_t j = i + 1;
            if (p[j] == '!' || p[j] == '^') {
                t.negated = true;
                ++j;
            }
            const std::size_t end = p.find(']', j + 1);  // a `]` first in the set is a member
            if (end == std::string_view::npos) {         // `[!]`: no set after all
                t.c = '[';
                tokens.push_back(std::move(t));
                continue;
            }
            for (std::size_t k = j; k < end; ++k) {
                if (k + 2 < end && p[k + 1] == '-') {
                    for (int c = static_cast<unsigned char>(p[k]); c <= static_cast<unsigned char>(p[k + 2]); ++c) {
                        t.set.push_back(static_cast<char>(c));
                        if (fold_case) t.set.push_back(fold(static_cast<char>(c), true));
                    }
                    k += 2;
                } else {
                    t.set.push_back(fold(p[k], fold_case));
                }
            }
            t.kind = Token::Kind::set;
            i = end;
        } else {
            t.c = fold(p[i], fold_case);
        }
        tokens.push_back(std::move(t));
    }
    return tokens;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text, bool fold_case) {
    // Which text positions the pattern's tokens so far can end at: O(pattern x text), no backtracking.
    const std::vector<Token> tokens = tokenize(pattern, fold_case);
    const std::size_t n = text.size();
    std::vector<std::uint8_t> cur(n + 1, 0), next(n + 1, 0);
    cur[0] = 1;
    for (const Token& t : tokens) {
        std::fill(next.begin(), next.end(), 0);
        bool seen = false;  // globstar_dir: some earlier position was reachable
        for (std::size_t j = 0; j <= n; ++j) {
            const char c = j > 0 ? fold(text[j - 1], fold_case) : '\0';
            switch (t.kind) {
                case Token::Kind::literal:
                    if (j > 0 && cur[j - 1] && c == t.c) next[j] = 1;
                    break;
                case Token::Kind::any:
                    if (j > 0 && cur[j - 1] && c != '/') next[j] = 1;
                    break;
                case Token::Kind::set:
                    if (j > 0 && cur[j - 1] && c != '/' && (t.set.find(c) != std::string::npos) != t.negated)
                        next[j] = 1;
                    break;
                case Token::Kind::star: next[j] = cur[j] || (j > 0 && next[j - 1] && c != '/'); break;
                case Token::Kind::globstar: next[j] = cur[j] || (j > 0 && next[j - 1]); break;
                case Token::Kind::globstar_dir:
                    // After `**/`: where the pattern was, or just after any `/` at or beyond it.
                    next[j] = cur[j] || (seen && c == '/');
                    seen = seen || cur[j];
                    break;
            }
        }
        cur.swap(next);
        if (std::find(cur.begin(), cur.end(), 1) == cur.end()) return false;
    }
    return cur[n] != 0;
}

base::Result<Glob> Glob::parse(std::string_view pattern) {
    if (pattern.empty()) return bad_glob("the glob is empty");
    if (pattern.size() > max_pattern_bytes)
        return bad_glob("the glob is " + std::to_string(pattern.size()) + " bytes long, over the " +
                        std::to_string(max_pattern_bytes) + " a glob may have");
    Glob glob;
    glob.text_ = std::string(pattern);
    if (count_alternatives(glob.text_, max_alternatives) > max_alternatives ||
        !expand(glob.text_, glob.alternatives_)) {
        // Named, but cut: a long glob is its caller's to show.
        const std::size_t shown = utf8_floor(glob.text_, std::min<std::size_t>(glob.text_.size(), 80));
        return bad_glob("the glob " + glob.text_.substr(0, shown) + (shown < glob.text_.size() ? "\u2026" : "") +
                        " expands to more than " + std::to_string(max_alternatives) + " alternatives");
    }
    glob.on_path_ = glob.text_.find('/') != std::string::npos;
    for (auto& alternative : glob.alternatives_)
        if (alternative.size() > 1 && alternative[0] == '/') alternative.erase(0, 1);  // anchored at the root anyway
    return glob;
}

bool Glob::matches(std::string_view name, std::string_view relative) const {
    const std::string_view subject = on_path_ ? relative : name;
    for (const auto& alternative : alternatives_)
        if (glob_match(alternative, subject)) return true;
    return false;
}

}  // namespace text
