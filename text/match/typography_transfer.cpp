// Giving new_string the file's typography: old_string and the matched region are paired character
// by character (folded forms equal), new_string is aligned with old_string by diff_lines over
// characters, and each kept character takes the region's form; new quotes follow the region's usage.
#include "text/match/typography_transfer.hpp"

#include <optional>
#include <vector>

#include "text/diff/line_edit_script.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/normalized_view.hpp"
#include "text/unicode/typography.hpp"
#include "text/unicode/unicode_fold.hpp"

namespace text {

namespace {

// Characters beyond which the pairing is not attempted (diff_lines bounds its own work).
constexpr std::size_t kMaxCharacters = 200'000;
constexpr std::size_t kMaxGroupBytes = 64;

struct Character {
    std::string_view text;
    std::string folded;
};

// `s` cut into clusters, line by line ("\n" is a character of its own).
std::vector<Character> characters(std::string_view s) {
    std::vector<Character> out;
    LineCursor cursor(s);
    std::string_view line;
    while (out.size() <= kMaxCharacters && cursor.next(line)) {
        const std::size_t b = static_cast<std::size_t>(line.data() - s.data());
        const std::size_t e = b + line.size();
        for (std::size_t i = b; i < e;) {
            const FoldedCluster c = fold_cluster_at(s, i, e);
            out.push_back({s.substr(i, c.size), c.changed ? c.text : std::string(s.substr(i, c.size))});
            i += c.size;
        }
        if (cursor.newline()) out.push_back({s.substr(e, 1), "\n"});
    }
    return out;
}

bool opens(std::string_view before) {
    if (before.empty()) return true;
    const char c = before.back();
    if (c == ' ' || c == '\t' || c == '\n' || c == '(' || c == '[' || c == '{' || c == '<' || c == '-') return true;
    // After an opening quote or a typographic space or dash.
    for (const std::size_t n : {2u, 3u}) {
        if (before.size() < n) continue;
        const Typographic t = typographic_at(before, before.size() - n);
        if (t.size != n) continue;
        if (t.is_space() || t.ascii == "-" || t.code_point == 0x201C || t.code_point == 0x2018) return true;
    }
    return false;
}

// How the region writes one ASCII quote ('\'' or '"') where old_string has it (or its curly forms).
struct QuoteUsage {
    std::size_t ascii = 0;         // written as ASCII
    std::size_t typographic = 0;   // written as a curly form
    std::string opening, closing;  // the curly forms seen in each context
    bool needle_curly = false;     // old_string had a curly form where the region has ASCII
};

struct Pairing {
    // For each character of old_string: the region's text at that place, when the two pair one to one.
    std::vector<std::optional<std::string_view>> region_form;
    QuoteUsage single_quote, double_quote;
};

// An ASCII quote or one of the curly quotes (not a prime, not a fullwidth form).
bool is_quote(const Character& c) {
    if (c.text == "'" || c.text == "\"") return true;
    const Typographic t = typographic_at(c.text, 0);
    return t.size == c.text.size() && t.code_point >= 0x2018 && t.code_point <= 0x201F;
}

QuoteUsage* usage_of(Pairing& p, std::string_view folded) {
    if (folded == "'") return &p.single_quote;
    if (folded == "\"") return &p.double_quote;
    return nullptr;
}

// Pairs old_string's characters with the region's, line by line, trailing whitespace aside.
std::optional<Pairing> pair_up(const std::vector<Character>& old_chars, std::string_view region) {
    Pairing out;
    out.region_form.resize(old_chars.size());
    const std::vector<Character> region_chars = characters(region);
    std::size_t i = 0, j = 0;
    auto line_end = [](const std::vector<Character>& cs, std::size_t from) {
        std::size_t e = from;
        while (e < cs.size() && cs[e].text != "\n") ++e;
        // Drop the trailing blanks (folded to blanks) of the line.
        while (e > from && (cs[e - 1].folded == " " || cs[e - 1].folded == "\t" || cs[e - 1].folded == "\f" ||
                            cs[e - 1].folded == "\v"))
            --e;
        return e;
    };
    while (i < old_chars.size() || j < region_chars.size()) {
        const std::size_t ie = line_end(old_chars, i);
        const std::size_t je = line_end(region_chars, j);
        std::size_t gi = i, gj = j;
        std::string fold_old, fold_region;
        while (i < ie || j < je) {
            if (fold_old.size() <= fold_region.size() && i < ie) {
                fold_old += old_chars[i++].folded;
            } else if (j < je) {
                fold_region += region_chars[j++].folded;
            } else {
                fold_old += old_chars[i++].folded;
            }
            const std::size_t common = std::min(fold_old.size(), fold_region.size());
            if (fold_old.compare(0, common, fold_region, 0, common) != 0 || common > kMaxGroupBytes)
                return std::nullopt;
            if (fold_old.size() != fold_region.size()) continue;
            if (i - gi == 1 && j - gj == 1) {
                const std::string_view form = region_chars[gj].text;
                out.region_form[gi] = form;
                QuoteUsage* u =
                    is_quote(old_chars[gi]) && is_quote(region_chars[gj]) ? usage_of(out, fold_old) : nullptr;
                if (u) {
                    const bool curly = form.size() > 1;
                    if (curly) {
                        ++u->typographic;
                        const std::string_view before =
                            region.substr(0, static_cast<std::size_t>(form.data() - region.data()));
                        (opens(before) ? u->opening : u->closing) = std::string(form);
                    } else {
                        ++u->ascii;
                        if (old_chars[gi].text.size() > 1) u->needle_curly = true;
                    }
                }
            }
            gi = i, gj = j;
            fold_old.clear(), fold_region.clear();
        }
        if (!fold_old.empty() || !fold_region.empty()) return std::nullopt;
        // Skip the trailing blanks of both lines, then the newline.
        while (i < old_chars.size() && old_chars[i].text != "\n") ++i;
        while (j < region_chars.size() && region_chars[j].text != "\n") ++j;
        if ((i < old_chars.size()) != (j < region_chars.size())) return std::nullopt;
        if (i < old_chars.size()) {
            out.region_form[i] = old_chars[i].text;
            ++i, ++j;
        }
    }
    return out;
}

// A quote new in the replacement, in the file's convention.
std::string_view new_quote(const QuoteUsage& u, std::string_view given, std::string_view ascii, bool opening,
                           std::string_view std_open, std::string_view std_close) {
    if (u.typographic > 0 && u.ascii == 0 && given == ascii) {
        const std::string& seen = opening ? u.opening : u.closing;
        if (!seen.empty()) return seen;
        // Only the other context was seen: its standard partner.
        const std::string& other = opening ? u.closing : u.opening;
        if (other == std_open || other == std_close) return opening ? std_open : std_close;
        return given;
    }
    if (u.ascii > 0 && u.typographic == 0 && u.needle_curly && given != ascii) return ascii;
    return given;
}

}  // namespace

std::string keep_file_typography(std::string_view needle, std::string_view region, std::string_view replacement) {
    const std::vector<Character> old_chars = characters(needle);
    const std::vector<Character> new_chars = characters(replacement);
    if (old_chars.size() > kMaxCharacters || new_chars.size() > kMaxCharacters) return std::string(replacement);
    const std::optional<Pairing> pairing = pair_up(old_chars, region);
    if (!pairing) return std::string(replacement);

    std::vector<std::string_view> a, b;
    a.reserve(old_chars.size());
    b.reserve(new_chars.size());
    for (const Character& c : old_chars) a.push_back(c.text);
    for (const Character& c : new_chars) b.push_back(c.text);
    std::string out;
    out.reserve(replacement.size() + replacement.size() / 8);
    for (const LineEdit& e : diff_lines(a, b)) {
        if (e.op == LineOp::remove) continue;
        const Character& c = new_chars[e.new_index];
        if (e.op == LineOp::common && pairing->region_form[e.old_index]) {
            out += *pairing->region_form[e.old_index];
            continue;
        }
        const bool opening = opens(out);
        if (is_quote(c) && c.folded == "\"") {
            out += new_quote(pairing->double_quote, c.text, "\"", opening, "\u201C", "\u201D");
        } else if (is_quote(c) && c.folded == "'") {
            out += new_quote(pairing->single_quote, c.text, "'", opening, "\u2018", "\u2019");
        } else {
            out += c.text;
        }
    }
    return out;
}

}  // namespace text
