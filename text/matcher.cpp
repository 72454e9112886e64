// The matching tiers of edit/multiedit/apply_diff: exact, trailing whitespace, Unicode (NFKC, typography),
// indentation, line-number prefixes; each tolerant view is built only when the tiers before fail.
#include "text/matcher.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "text/byte_scan.hpp"
#include "text/byte_search.hpp"
#include "text/file_facts.hpp"
#include "text/near_miss.hpp"
#include "text/normalized_view.hpp"
#include "text/typography_transfer.hpp"

namespace text {

const char* to_string(MatchTier tier) {
    switch (tier) {
        case MatchTier::exact: return "exact";
        case MatchTier::trailing_whitespace: return "trailing_whitespace";
        case MatchTier::unicode_normalized: return "unicode_normalized";
        case MatchTier::indentation: return "indentation";
        case MatchTier::line_numbers: return "line_numbers";
    }
    return "exact";
}

const char* to_string(MatchErrorKind kind) {
    switch (kind) {
        case MatchErrorKind::empty_old_string: return "empty_old_string";
        case MatchErrorKind::identical: return "identical";
        case MatchErrorKind::not_found: return "not_found";
        case MatchErrorKind::already_applied: return "already_applied";
        case MatchErrorKind::ambiguous: return "ambiguous";
    }
    return "not_found";
}

std::string to_string(const LineRange& range) {
    if (range.first == range.last) return std::to_string(range.first);
    return std::to_string(range.first) + "-" + std::to_string(range.last);
}

std::optional<std::string> strip_line_number_prefixes(std::string_view s, std::size_t* first_number,
                                                      std::size_t* first_index) {
    std::string out;
    out.reserve(s.size());
    bool any = false;
    enum class LineNumberForm { none, tab, arrow, bar } form = LineNumberForm::none;
    std::size_t index = 0;
    std::size_t b = 0;
    while (b <= s.size()) {
        std::size_t e = s.find('\n', b);
        const bool last = e == std::string_view::npos;
        if (last) e = s.size();
        const std::string_view line = s.substr(b, e - b);
        if (!line.empty()) {
            std::size_t i = 0;
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
            const std::size_t digits = i;
            std::size_t number = 0;
            while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
                if (number < std::numeric_limits<std::size_t>::max() / 10) {
                    number = number * 10 + static_cast<std::size_t>(line[i] - '0');
                }
                ++i;
            }
            if (i == digits) return std::nullopt;
            // The separator after the number: our `read`'s tab (cat -n), Claude Code's `→`, Roo's
            // ` | ` (` |` on an empty line); every line must carry the form the first one has.
            const std::string_view rest = line.substr(i);
            std::size_t separator = 0;
            LineNumberForm line_form = LineNumberForm::none;
            if (rest.starts_with("\t")) {
                line_form = LineNumberForm::tab, separator = 1;
            } else if (rest.starts_with("\xE2\x86\x92")) {
                line_form = LineNumberForm::arrow, separator = 3;
            } else if (rest.starts_with(" | ")) {
                line_form = LineNumberForm::bar, separator = 3;
            } else if (rest == " |") {
                line_form = LineNumberForm::bar, separator = 2;
            }
            if (line_form == LineNumberForm::none || (any && line_form != form)) return std::nullopt;
            form = line_form;
            if (!any) {
                if (first_number) *first_number = number;
                if (first_index) *first_index = index;
            }
            any = true;
            out.append(line.substr(i + separator));
        }
        if (last) break;
        out += '\n';
        b = e + 1;
        ++index;
    }
    if (!any) return std::nullopt;
    return out;
}

namespace {

bool is_indent_byte(char c) { return c == ' ' || c == '\t'; }

std::string_view ltrim_indent(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && is_indent_byte(s[i])) ++i;
    return s.substr(i);
}

bool has_visible_text(std::string_view s) {
    for (const char c : s) {
        if (!is_blank_byte(c) && c != '\n' && c != '\r') return true;
    }
    return false;
}

// A uniform indentation shift: the file's lines are the needle's with `prefix` added (add) or
// removed (!add); or, when one side indents with tabs and the other with spaces, every line's
// indentation width (tabs counted as tab_width columns) moved by `delta` columns.
struct Shift {
    bool add = true;
    std::string_view prefix;
    bool by_width = false;
    std::size_t tab_width = 0;
    long long delta = 0;
    bool file_uses_tabs = false;
    bool operator==(const Shift& o) const { return add == o.add && prefix == o.prefix; }
};

std::size_t indent_width(std::string_view line, std::size_t tab_width) {
    std::size_t w = 0;
    for (const char c : line) {
        if (c == ' ') {
            ++w;
        } else if (c == '\t') {
            w += tab_width - w % tab_width;
        } else {
            break;
        }
    }
    return w;
}

std::string_view indentation(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_indent_byte(line[i])) ++i;
    return line.substr(0, i);
}

std::optional<Shift> shift_between(std::string_view file_line, std::string_view needle_line) {
    auto all_indent = [](std::string_view s) { return std::all_of(s.begin(), s.end(), is_indent_byte); };
    if (file_line.size() > needle_line.size()) {
        const std::size_t d = file_line.size() - needle_line.size();
        if (file_line.substr(d) == needle_line && all_indent(file_line.substr(0, d))) {
            return Shift{true, file_line.substr(0, d)};
        }
    } else if (needle_line.size() > file_line.size()) {
        const std::size_t d = needle_line.size() - file_line.size();
        if (needle_line.substr(d) == file_line && all_indent(needle_line.substr(0, d))) {
            return Shift{false, needle_line.substr(0, d)};
        }
    }
    return std::nullopt;
}

// new_string moved by the same shift as the one between old_string and the file.
std::string reindent(std::string_view text, const Shift& shift) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    std::size_t b = 0;
    while (b <= text.size()) {
        std::size_t e = text.find('\n', b);
        const bool last = e == std::string_view::npos;
        if (last) e = text.size();
        std::string_view line = text.substr(b, e - b);
        if (shift.by_width) {
            if (has_visible_text(line)) {
                const long long w = static_cast<long long>(indent_width(line, shift.tab_width)) + shift.delta;
                const std::size_t width = w > 0 ? static_cast<std::size_t>(w) : 0;
                line.remove_prefix(indentation(line).size());
                if (shift.file_uses_tabs) {
                    out.append(width / shift.tab_width, '\t');
                    out.append(width % shift.tab_width, ' ');
                } else {
                    out.append(width, ' ');
                }
            }
        } else if (shift.add) {
            if (has_visible_text(line)) out += shift.prefix;
        } else {
            std::size_t n = 0;
            while (n < shift.prefix.size() && n < line.size() && line[n] == shift.prefix[n]) ++n;
            line.remove_prefix(n);
        }
        out += line;
        if (last) break;
        out += '\n';
        b = e + 1;
    }
    return out;
}

// new_string with its U+FFFDs written as the file's bytes they stand for in old_string (`bytes`,
// one per U+FFFD of old_string): in order when both have as many; otherwise those in the text the
// two share at the start and at the end. A U+FFFD new in new_string stays one.
std::string restore_invalid_bytes(std::string_view needle, std::string_view replacement, std::string_view bytes) {
    constexpr std::string_view fffd = "\xEF\xBF\xBD";
    std::vector<std::size_t> in_new;
    for (std::size_t p = find_bytes(replacement, fffd); p != std::string_view::npos; p = find_bytes(replacement, fffd, p + 3))
        in_new.push_back(p);
    std::vector<std::optional<char>> byte_for(in_new.size());
    if (in_new.size() == bytes.size()) {
        for (std::size_t k = 0; k < in_new.size(); ++k) byte_for[k] = bytes[k];
    } else {
        std::size_t prefix = 0;
        while (prefix < needle.size() && prefix < replacement.size() && needle[prefix] == replacement[prefix]) ++prefix;
        std::size_t suffix = 0;
        while (suffix < needle.size() - prefix && suffix < replacement.size() - prefix &&
               needle[needle.size() - 1 - suffix] == replacement[replacement.size() - 1 - suffix])
            ++suffix;
        std::size_t k = 0;
        for (; k < in_new.size() && in_new[k] + 3 <= prefix; ++k) byte_for[k] = bytes[k];
        for (std::size_t back = 0; back < in_new.size() && back < bytes.size(); ++back) {
            const std::size_t idx = in_new.size() - 1 - back;
            if (in_new[idx] < replacement.size() - suffix || idx < k) break;
            byte_for[idx] = bytes[bytes.size() - 1 - back];
        }
    }
    std::string out;
    out.reserve(replacement.size());
    std::size_t from = 0;
    for (std::size_t k = 0; k < in_new.size(); ++k) {
        out.append(replacement.substr(from, in_new[k] - from));
        if (byte_for[k]) out += *byte_for[k];
        else out.append(fffd);
        from = in_new[k] + 3;
    }
    out.append(replacement.substr(from));
    return out;
}

struct Place {
    std::size_t lf_begin = 0;  // in the LF view
    std::size_t lf_end = 0;
    std::size_t begin = 0;  // in the file
    std::size_t end = 0;
    std::optional<Shift> shift;  // indentation tier
    std::string invalid_bytes;   // the file's bytes that old_string's U+FFFDs stood for, in order
    LineRange lines;
};

struct Found {
    std::vector<Place> places;  // in file order; at most the listing cap unless replace_all
    std::size_t count = 0;
};

struct Attempt {
    std::string needle;                    // "\n" newlines
    std::string replacement;               // "\n" newlines
    std::optional<std::size_t> line_hint;  // the line the needle says it starts at (read prefixes)
};

class Matcher {
public:
    Matcher(std::string_view file, const EditSpec& spec, const MatchOptions& options)
        : spec_(spec),
          options_(options),
          lf_(file),
          file_has_bom_(file.starts_with("\xEF\xBB\xBF")),
          cap_(spec.replace_all ? std::numeric_limits<std::size_t>::max() : std::max<std::size_t>(1, options.max_listed_places)) {}

    base::Result<Match, MatchError> run() {
        Attempt first;
        first.needle = normalize_newlines(spec_.old_string);
        first.replacement = normalize_newlines(spec_.new_string);
        // An old_string starting with U+FEFF was copied from a view that kept the file's BOM: the
        // text after it is matched from line 1 of the view (which has no BOM), the BOM stays on disk.
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        if (file_has_bom_ && first.needle.starts_with(bom) && first.needle.size() > bom.size()) {
            first.needle.erase(0, bom.size());
            if (first.replacement.starts_with(bom)) first.replacement.erase(0, bom.size());
            first.line_hint = 1;
        }
        if (auto decided = try_tiers(first, std::nullopt)) return std::move(*decided);

        // Tier 5: line-number prefixes copied from `read` output.
        std::size_t number = 0, index = 0;
        std::optional<Attempt> numbered;
        if (auto stripped = strip_line_number_prefixes(first.needle, &number, &index)) {
            numbered.emplace();
            numbered->needle = std::move(*stripped);
            if (auto new_stripped = strip_line_number_prefixes(first.replacement)) {
                numbered->replacement = std::move(*new_stripped);
            } else {
                numbered->replacement = first.replacement;
            }
            if (number > index) numbered->line_hint = number - index;
            if (!numbered->needle.empty() && numbered->needle != first.needle) {
                if (auto decided = try_tiers(*numbered, MatchTier::line_numbers)) return std::move(*decided);
            }
        }

        const Attempt& basis = numbered && !numbered->needle.empty() ? *numbered : first;
        return not_found(basis);
    }

private:
    const TolerantView& view2() {
        if (!view2_) view2_.emplace(lf_.text(), Tolerance{true, false});
        return *view2_;
    }
    const TolerantView& view3() {
        if (!view3_) view3_.emplace(lf_.text(), Tolerance{true, true});
        return *view3_;
    }
    const std::vector<std::size_t>& starts3() {
        if (!starts3_) {
            const std::string_view t = view3().text();
            std::vector<std::size_t> starts;
            std::size_t b = 0;
            while (b < t.size()) {
                starts.push_back(b);
                const std::size_t e = t.find('\n', b);
                if (e == std::string_view::npos) break;
                b = e + 1;
            }
            starts3_ = std::move(starts);
        }
        return *starts3_;
    }

    void record(Found& found, std::size_t lf_begin, std::size_t lf_end, std::optional<Shift> shift) {
        ++found.count;
        if (found.places.size() >= cap_) return;
        Place p;
        p.lf_begin = lf_begin;
        p.lf_end = lf_end;
        p.begin = lf_.to_source(lf_begin);
        p.end = lf_.to_source(lf_end);
        p.shift = shift;
        found.places.push_back(p);
    }

    // Every non-overlapping occurrence of `needle` in `hay`, mapped to the LF view by `to_lf`.
    template <class ToLf>
    Found search(std::string_view hay, std::string_view needle, bool must_end_at_line_end, ToLf&& to_lf) {
        Found found;
        std::size_t from = 0;
        while (true) {
            const std::size_t hit = find_bytes(hay, needle, from);
            if (hit == std::string_view::npos) break;
            const std::size_t end = hit + needle.size();
            if (must_end_at_line_end && end < hay.size() && hay[end] != '\n') {
                from = hit + 1;
                continue;
            }
            const std::optional<std::size_t> b = to_lf(hit);
            const std::optional<std::size_t> e = to_lf(end);
            if (!b || !e) {  // a boundary inside a folded character
                from = hit + 1;
                continue;
            }
            record(found, *b, *e, std::nullopt);
            from = end;
        }
        return found;
    }

    // `read` shows each byte that is not UTF-8 as U+FFFD: in old_string, each U+FFFD stands for
    // exactly one such byte at that place (the exact tier otherwise). The bytes are kept.
    Found search_invalid_bytes(std::string_view needle) {
        Found found;
        constexpr std::string_view fffd = "\xEF\xBF\xBD";
        if (find_bytes(needle, fffd) == std::string_view::npos) return found;
        const std::string_view lf = lf_.text();
        if (!invalid_) invalid_ = invalid_utf8_bytes(lf);
        const std::vector<std::size_t>& invalid = *invalid_;
        if (invalid.empty()) return found;
        // The needle as pieces of literal text, each followed by one U+FFFD except the last; where
        // each piece and each stand-in byte lies relative to the start of a place in the file.
        std::vector<std::string_view> pieces;
        std::vector<std::size_t> piece_at, byte_at;
        std::size_t b = 0, offset = 0;
        while (true) {
            const std::size_t e = find_bytes(needle, fffd, b);
            const std::string_view piece = needle.substr(b, (e == std::string_view::npos ? needle.size() : e) - b);
            pieces.push_back(piece);
            piece_at.push_back(offset);
            offset += piece.size();
            if (e == std::string_view::npos) break;
            byte_at.push_back(offset++);
            b = e + fffd.size();
        }
        const std::size_t length = offset;
        auto is_invalid = [&invalid](std::size_t pos) { return std::binary_search(invalid.begin(), invalid.end(), pos); };
        auto matches_at = [&](std::size_t start) {
            if (start + length > lf.size()) return false;
            for (std::size_t k = 0; k < pieces.size(); ++k)
                if (lf.compare(start + piece_at[k], pieces[k].size(), pieces[k]) != 0) return false;
            for (const std::size_t at : byte_at)
                if (!is_invalid(start + at)) return false;
            return true;
        };
        auto take = [&](std::size_t start) {
            record(found, start, start + length, std::nullopt);
            if (found.places.size() && found.places.back().lf_begin == start) {
                for (const std::size_t at : byte_at) found.places.back().invalid_bytes += lf[start + at];
            }
        };
        // Candidates: where the longest piece occurs, or, when there is no literal text, every invalid byte.
        std::size_t longest = 0;
        for (std::size_t k = 1; k < pieces.size(); ++k)
            if (pieces[k].size() > pieces[longest].size()) longest = k;
        std::size_t next_free = 0;  // places do not overlap
        if (pieces[longest].empty()) {
            for (const std::size_t pos : invalid) {
                if (pos < byte_at[0] || pos - byte_at[0] < next_free) continue;
                const std::size_t start = pos - byte_at[0];
                if (matches_at(start)) take(start), next_free = start + length;
            }
            return found;
        }
        for (std::size_t hit = find_bytes(lf, pieces[longest]); hit != std::string_view::npos;
             hit = find_bytes(lf, pieces[longest], hit + 1)) {
            if (hit < piece_at[longest]) continue;
            const std::size_t start = hit - piece_at[longest];
            if (start < next_free || !matches_at(start)) continue;
            take(start);
            next_free = start + length;
        }
        return found;
    }

    // Tier 4, line by line on the most tolerant view.
    Found search_indentation(std::string_view needle3) {
        Found found;
        bool ends_with_newline = false;
        const std::vector<std::string_view> lines = split_lf_lines(needle3, &ends_with_newline);
        const std::size_t k = lines.size();
        std::size_t f = 0;
        while (f < k && lines[f].empty()) ++f;
        if (f == k) return found;
        const std::string_view core = ltrim_indent(lines[f]);

        const TolerantView& view = view3();
        const std::string_view t = view.text();
        const std::vector<std::size_t>& starts = starts3();
        const std::size_t count = starts.size();
        auto line_at = [&](std::size_t i) {
            const std::size_t b = starts[i];
            const std::size_t e = i + 1 < count ? starts[i + 1] - 1 : t.find('\n', b);
            return t.substr(b, (e == std::string_view::npos ? t.size() : e) - b);
        };
        for (std::size_t i = f; i + (k - f) <= count; ++i) {
            const std::string_view anchor = line_at(i);
            if (anchor.size() < core.size() || ltrim_indent(anchor) != core) continue;
            const std::optional<Shift> shift = shift_between(anchor, lines[f]);
            if (!shift || shift->prefix.empty()) continue;
            const std::size_t i0 = i - f;
            bool ok = true;
            for (std::size_t j = 0; j < k && ok; ++j) {
                const std::string_view fl = line_at(i0 + j);
                if (lines[j].empty()) {
                    ok = fl.empty();
                } else {
                    const std::optional<Shift> s = shift_between(fl, lines[j]);
                    ok = s && *s == *shift;
                }
            }
            if (!ok) continue;
            const std::string_view last = line_at(i0 + k - 1);
            const std::size_t last_end = static_cast<std::size_t>(last.data() - t.data()) + last.size();
            if (ends_with_newline && last_end >= t.size()) continue;  // the file's line has no newline
            const std::size_t vb = starts[i0];
            const std::size_t ve = ends_with_newline ? last_end + 1 : last_end;
            const std::optional<std::size_t> b = view.to_source(vb);
            const std::optional<std::size_t> e = view.to_source(ve);
            if (!b || !e) continue;
            record(found, *b, *e, shift);
            i = i0 + k + f - 1;  // the next candidate starts after this place
        }
        if (found.count == 0) found = search_indentation_width(lines, ends_with_newline, f);
        return found;
    }

    // Tier 4 when one side indents with tabs and the other with spaces: the same text after the
    // indentation on every line, and indentation widths that differ by one constant.
    Found search_indentation_width(const std::vector<std::string_view>& lines, bool ends_with_newline,
                                   std::size_t f) {
        Found found;
        const std::size_t k = lines.size();
        const std::string_view core = ltrim_indent(lines[f]);
        const TolerantView& view = view3();
        const std::string_view t = view.text();
        const std::vector<std::size_t>& starts = starts3();
        const std::size_t count = starts.size();
        auto line_at = [&](std::size_t i) {
            const std::size_t b = starts[i];
            const std::size_t e = i + 1 < count ? starts[i + 1] - 1 : t.find('\n', b);
            return t.substr(b, (e == std::string_view::npos ? t.size() : e) - b);
        };
        bool needle_tabs = false;
        for (const std::string_view l : lines) {
            if (indentation(l).find('\t') != std::string_view::npos) needle_tabs = true;
        }
        for (std::size_t i = f; i + (k - f) <= count; ++i) {
            const std::string_view anchor = line_at(i);
            if (anchor.size() < core.size() || ltrim_indent(anchor) != core) continue;
            const std::size_t i0 = i - f;
            bool ok = true, file_tabs = false;
            for (std::size_t j = 0; j < k && ok; ++j) {
                const std::string_view fl = line_at(i0 + j);
                if (lines[j].empty()) {
                    ok = fl.empty();
                } else {
                    ok = ltrim_indent(fl) == ltrim_indent(lines[j]);
                    if (indentation(fl).find('\t') != std::string_view::npos) file_tabs = true;
                }
            }
            // Exactly one side uses tabs; with the same characters on both sides the prefix rule decides.
            if (!ok || file_tabs == needle_tabs) continue;
            // Tab widths to try: the one that puts both sides at the same depth, then the usual ones.
            std::vector<std::size_t> widths;
            {
                const std::string_view tab_side = file_tabs ? line_at(i) : lines[f];
                const std::string_view space_side = file_tabs ? lines[f] : line_at(i);
                const auto tabs = static_cast<std::size_t>(
                    std::count(indentation(tab_side).begin(), indentation(tab_side).end(), '\t'));
                const std::size_t spaces = indentation(space_side).size();
                if (tabs > 0 && spaces > 0 && spaces % tabs == 0 && spaces / tabs <= 8 &&
                    indentation(tab_side).size() == tabs) {
                    widths.push_back(spaces / tabs);
                }
                for (const std::size_t w : {4u, 8u, 2u}) {
                    if (std::find(widths.begin(), widths.end(), w) == widths.end()) widths.push_back(w);
                }
            }
            std::optional<Shift> shift;
            for (const std::size_t w : widths) {
                const long long delta = static_cast<long long>(indent_width(line_at(i), w)) -
                                        static_cast<long long>(indent_width(lines[f], w));
                bool same = true;
                for (std::size_t j = 0; j < k && same; ++j) {
                    if (lines[j].empty()) continue;
                    same = static_cast<long long>(indent_width(line_at(i0 + j), w)) -
                               static_cast<long long>(indent_width(lines[j], w)) ==
                           delta;
                }
                if (same) {
                    Shift s;
                    s.by_width = true;
                    s.tab_width = w;
                    s.delta = delta;
                    s.file_uses_tabs = file_tabs;
                    shift = s;
                    break;
                }
            }
            if (!shift) continue;
            const std::string_view last = line_at(i0 + k - 1);
            const std::size_t last_end = static_cast<std::size_t>(last.data() - t.data()) + last.size();
            if (ends_with_newline && last_end >= t.size()) continue;
            const std::optional<std::size_t> b = view.to_source(starts[i0]);
            const std::optional<std::size_t> e = view.to_source(ends_with_newline ? last_end + 1 : last_end);
            if (!b || !e) continue;
            record(found, *b, *e, shift);
            i = i0 + k + f - 1;
        }
        return found;
    }

    // Tiers 1-4 for one needle; a result when a tier found something (or decided ambiguity).
    std::optional<base::Result<Match, MatchError>> try_tiers(const Attempt& a, std::optional<MatchTier> label) {
        if (a.needle.empty()) return std::nullopt;
        auto decided_by = [&](MatchTier tier) { return label ? *label : tier; };
        const std::string_view lf = lf_.text();

        Found found = search(lf, a.needle, false, [](std::size_t p) { return std::optional<std::size_t>(p); });
        if (found.count) return decide(decided_by(MatchTier::exact), std::move(found), a);
        found = search_invalid_bytes(a.needle);
        if (found.count) return decide(decided_by(MatchTier::exact), std::move(found), a);

        const TolerantText needle2 = tolerant_text(a.needle, Tolerance{true, false});
        if (has_visible_text(needle2.text) && (view2().changed() || needle2.text != a.needle)) {
            const TolerantView& v = view2();
            found = search(v.text(), needle2.text, needle2.last_line_stripped,
                           [&v](std::size_t p) { return v.to_source(p); });
            if (found.count) return decide(decided_by(MatchTier::trailing_whitespace), std::move(found), a);
        }

        const TolerantText needle3 = tolerant_text(a.needle, Tolerance{true, true});
        if (has_visible_text(needle3.text)) {
            const TolerantView& v = view3();
            if (v.folded() || needle3.text != needle2.text) {
                found = search(v.text(), needle3.text, needle3.last_line_stripped,
                               [&v](std::size_t p) { return v.to_source(p); });
                if (found.count) return decide(decided_by(MatchTier::unicode_normalized), std::move(found), a, true);
            }
            found = search_indentation(needle3.text);
            if (found.count) return decide(decided_by(MatchTier::indentation), std::move(found), a);
        }
        return std::nullopt;
    }

    void assign_lines(std::vector<Place>& places) {
        // Places are in file order and do not overlap: one forward count of newlines.
        const std::string_view t = lf_.text();
        std::size_t at = 0;
        std::size_t line = 1;
        auto line_of = [&](std::size_t pos) {
            if (pos < at) {  // never happens for sorted places; kept total for safety
                at = 0;
                line = 1;
            }
            line += count_byte(t.substr(at, pos - at), '\n');
            at = pos;
            return line;
        };
        for (Place& p : places) {
            p.lines.first = line_of(p.lf_begin);
            p.lines.last = p.lf_end > p.lf_begin ? line_of(p.lf_end - 1) : p.lines.first;
        }
    }

    // `folded`: the places were found with Unicode folded, so the replacement takes the file's typography.
    base::Result<Match, MatchError> decide(MatchTier tier, Found found, const Attempt& a, bool folded = false) {
        assign_lines(found.places);
        std::vector<const Place*> chosen;
        if (spec_.replace_all || found.count == 1) {
            for (const Place& p : found.places) chosen.push_back(&p);
        } else {
            if (a.line_hint) {
                for (const Place& p : found.places) {
                    if (p.lines.first == *a.line_hint) chosen.push_back(&p);
                }
                if (chosen.size() != 1) chosen.clear();
            }
            if (chosen.empty() && options_.start_line_hint) {
                const std::size_t hint = *options_.start_line_hint;
                auto distance = [hint](const Place& p) {
                    return p.lines.first > hint ? p.lines.first - hint : hint - p.lines.first;
                };
                std::size_t best = std::numeric_limits<std::size_t>::max();
                for (const Place& p : found.places) best = std::min(best, distance(p));
                for (const Place& p : found.places) {
                    if (distance(p) == best) chosen.push_back(&p);
                }
                if (chosen.size() != 1) chosen.clear();
            }
            if (chosen.empty()) return ambiguous(tier, found);
        }
        Match m;
        m.tier = tier;
        m.replacements.reserve(chosen.size());
        m.lines.reserve(chosen.size());
        for (const Place* p : chosen) {
            Replacement r;
            r.begin = p->begin;
            r.end = p->end;
            if (!p->invalid_bytes.empty()) {
                r.text = restore_invalid_bytes(a.needle, a.replacement, p->invalid_bytes);
            } else if (p->shift) {
                r.text = reindent(a.replacement, *p->shift);
            } else if (folded) {
                r.text = keep_file_typography(a.needle, lf_.text().substr(p->lf_begin, p->lf_end - p->lf_begin),
                                              a.replacement);
            } else {
                r.text = a.replacement;
            }
            m.replacements.push_back(std::move(r));
            m.lines.push_back(p->lines);
        }
        return m;
    }

    base::Result<Match, MatchError> ambiguous(MatchTier tier, const Found& found) {
        MatchError err;
        err.kind = MatchErrorKind::ambiguous;
        err.tier = tier;
        err.place_count = found.count;
        for (const Place& p : found.places) err.places.push_back(p.lines);
        const std::string n = std::to_string(found.count);
        std::string& m = err.message;
        m += std::string(options_.old_name) + " matches " + n + " places";
        switch (tier) {
            case MatchTier::exact: m += " in the file"; break;
            case MatchTier::trailing_whitespace: m += " when trailing whitespace is ignored"; break;
            case MatchTier::unicode_normalized:
                m += " when Unicode forms are normalized (NFKC) and typographic quotes, dashes and spaces read as ASCII";
                break;
            case MatchTier::indentation: m += " when indentation is ignored"; break;
            case MatchTier::line_numbers: m += " once its read line-number prefixes are removed"; break;
        }
        m += " (at lines ";
        constexpr std::size_t kListed = 50;
        for (std::size_t i = 0; i < err.places.size() && i < kListed; ++i) {
            if (i) m += ", ";
            m += to_string(err.places[i]);
        }
        if (found.count > std::min(err.places.size(), kListed)) {
            m += ", and " + std::to_string(found.count - std::min(err.places.size(), kListed)) + " more";
        }
        m += "), but it must match exactly one. Include more of the surrounding lines in " +
             std::string(options_.old_name) + " so that it matches only the place meant, or set replace_all " +
             "to true to change all " + n + ".";
        return base::fail(std::move(err));
    }

    base::Result<Match, MatchError> not_found(const Attempt& a) {
        const std::string_view lf = lf_.text();
        // "Already applied" only for a distinctive new text (a few visible bytes, found once):
        // a short or repeated one says nothing about this edit.
        const auto visible = static_cast<std::size_t>(std::count_if(
            a.replacement.begin(), a.replacement.end(),
            [](char c) { return !is_blank_byte(c) && c != '\n' && c != '\r'; }));
        if (visible >= 6) {
            std::size_t hit = find_bytes(lf, a.replacement);
            if (hit != std::string_view::npos && find_bytes(lf, a.replacement, hit + 1) != std::string_view::npos) {
                hit = std::string_view::npos;
            }
            if (hit != std::string_view::npos) {
                Place p;
                p.lf_begin = hit;
                p.lf_end = hit + a.replacement.size();
                std::vector<Place> one{p};
                assign_lines(one);
                MatchError err;
                err.kind = MatchErrorKind::already_applied;
                err.region = one[0].lines;
                err.message = std::string(options_.old_name) + " was not found in the file, but the new text (" +
                              std::string(options_.new_name) + ") is already present at line " +
                              std::to_string(one[0].lines.first) +
                              (one[0].lines.last != one[0].lines.first ? " (lines " + to_string(one[0].lines) + ")"
                                                                        : std::string()) +
                              ": this edit looks already applied, so nothing was changed. If it was not, read " +
                              "the file and retry with " + std::string(options_.old_name) +
                              " copied from its current text.";
                return base::fail(std::move(err));
            }
        }
        NearMiss near = explain_not_found(lf, a.needle, options_.old_name);
        MatchError err;
        err.kind = MatchErrorKind::not_found;
        err.message = std::move(near.message);
        err.region = near.region;
        return base::fail(std::move(err));
    }

    const EditSpec& spec_;
    const MatchOptions& options_;
    LfView lf_;
    bool file_has_bom_ = false;
    std::size_t cap_;
    std::optional<TolerantView> view2_;
    std::optional<TolerantView> view3_;
    std::optional<std::vector<std::size_t>> starts3_;
    std::optional<std::vector<std::size_t>> invalid_;  // the LF view's bytes that are not UTF-8
};

}  // namespace

base::Result<Match, MatchError> match_edit(std::string_view file_bytes, const EditSpec& spec, const MatchOptions& options) {
    if (spec.old_string.empty()) {
        MatchError err;
        err.kind = MatchErrorKind::empty_old_string;
        err.message = std::string(options.old_name) +
                      " is empty, but the file already exists. Copy the text to replace from the file into " +
                      std::string(options.old_name) + " (read it first), or use write to replace the whole file.";
        return base::fail(std::move(err));
    }
    if (spec.old_string == spec.new_string) {
        MatchError err;
        err.kind = MatchErrorKind::identical;
        err.message = std::string(options.old_name) + " and " + std::string(options.new_name) +
                      " are identical, so the edit would change nothing. Put the text that should replace " +
                      std::string(options.old_name) + " in " + std::string(options.new_name) + ".";
        return base::fail(std::move(err));
    }
    Matcher matcher(file_bytes, spec, options);
    return matcher.run();
}

}  // namespace text
