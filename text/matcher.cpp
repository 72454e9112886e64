// The matching tiers of edit/multiedit/apply_diff: exact, trailing whitespace, Unicode (NFKC, typography),
// indentation, line-number prefixes; each tolerant view is built only when the tiers before fail.
// Over 300 lines: the Matcher class keeps the lazily built views every tier shares; the
// indentation search, U+FFFD stand-ins, line-number prefixes and messages have files of their own.
#include "text/matcher.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "text/byte_scan.hpp"
#include "text/byte_search.hpp"
#include "text/file_facts.hpp"
#include "text/indentation_search.hpp"
#include "text/line_number_prefixes.hpp"
#include "text/lines.hpp"
#include "text/match_messages.hpp"
#include "text/near_miss.hpp"
#include "text/normalized_view.hpp"
#include "text/replacement_fit.hpp"
#include "text/stand_in_bytes.hpp"
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
        case MatchErrorKind::unclear_indentation: return "unclear_indentation";
    }
    return "not_found";
}

std::string to_string(const LineRange& range) {
    if (range.first == range.last) return std::to_string(range.first);
    return std::to_string(range.first) + "-" + std::to_string(range.last);
}

namespace {

struct Place {
    std::size_t lf_begin = 0;  // in the LF view
    std::size_t lf_end = 0;
    std::size_t begin = 0;  // in the file
    std::size_t end = 0;
    std::optional<IndentShift> shift;  // indentation tier
    std::string invalid_bytes;         // the file's bytes that old_string's U+FFFDs stood for, in order
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
          cap_(spec.replace_all ? std::numeric_limits<std::size_t>::max()
                                : std::max<std::size_t>(1, options.max_listed_places)) {}

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
        std::optional<Attempt> numbered;
        if (auto stripped = strip_line_number_prefixes(first.needle)) {
            numbered.emplace();
            numbered->needle = std::move(stripped->text);
            if (auto new_stripped = strip_line_number_prefixes(first.replacement)) {
                numbered->replacement = std::move(new_stripped->text);
            } else {
                numbered->replacement = first.replacement;
            }
            if (stripped->first_number > stripped->first_index) {
                numbered->line_hint = stripped->first_number - stripped->first_index;
            }
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
    const LineTable& lines3() {
        if (!lines3_) lines3_.emplace(view3().text());
        return *lines3_;
    }

    void record(Found& found, std::size_t lf_begin, std::size_t lf_end, std::optional<IndentShift> shift) {
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

    // old_string's U+FFFDs each standing for one byte of the file that is not UTF-8 (the exact tier).
    Found search_invalid_bytes(std::string_view needle) {
        Found found;
        if (!has_stand_ins(needle)) return found;
        if (!invalid_) invalid_ = invalid_utf8_bytes(lf_.text());
        for (StandInPlace& p : find_with_stand_ins(lf_.text(), needle, *invalid_)) {
            record(found, p.begin, p.end, std::nullopt);
            if (found.places.size() && found.places.back().lf_begin == p.begin) {
                found.places.back().invalid_bytes = std::move(p.bytes);
            }
        }
        return found;
    }

    // Tier 4, line by line on the most tolerant view.
    Found search_indentation(std::string_view needle3) {
        Found found;
        const TolerantView& view = view3();
        find_indented(lines3(), needle3, [&](std::size_t vb, std::size_t ve, const IndentShift& shift) {
            const std::optional<std::size_t> b = view.to_source(vb);
            const std::optional<std::size_t> e = view.to_source(ve);
            if (!b || !e) return false;  // a boundary inside a folded character
            record(found, *b, *e, shift);
            return true;
        });
        return found;
    }

    // A tolerant place reaches the end of its last line when only blanks follow it there: the
    // tiers read lines without their trailing blanks, so a line new_string rewrites ends as
    // new_string ends it, and a line it repeats keeps the file's bytes (replacement_fit).
    // `to_newline`: old_string's last line ended in blanks the view dropped (typographic spaces
    // too), so up to the newline is all blanks.
    void take_trailing_blanks(Found& found, bool to_newline) {
        const std::string_view t = lf_.text();
        for (Place& p : found.places) {
            if (!to_newline) {
                take_trailing_blanks_of(p);
                continue;
            }
            std::size_t e = p.lf_end;
            while (e < t.size() && t[e] != '\n') ++e;
            if (e == p.lf_end) continue;
            p.lf_end = e;
            p.end = lf_.to_source(e);
        }
    }
    // The place extended to the end of its line when only blanks follow it there.
    void take_trailing_blanks_of(Place& p) {
        const std::string_view t = lf_.text();
        std::size_t e = p.lf_end;
        while (e < t.size() && t[e] != '\n' && is_blank_byte(t[e])) ++e;
        if (e == p.lf_end || (e < t.size() && t[e] != '\n')) return;
        p.lf_end = e;
        p.end = lf_.to_source(e);
    }
    // The place extended back to the start of its line when only blanks precede it there and
    // new_string's first line starts with exactly those blanks (or is blanks only) while
    // old_string's does not start with a blank: the caller wrote that line's start, so the file's
    // indentation is not added to the caller's (it would be doubled).
    void take_leading_blanks_of(Place& p, const Attempt& a) {
        if (a.needle.empty() || is_blank_byte(a.needle.front()) || a.replacement.empty() ||
            !is_blank_byte(a.replacement.front())) {
            return;
        }
        const std::string_view t = lf_.text();
        std::size_t b = p.lf_begin;
        while (b > 0 && t[b - 1] != '\n' && is_blank_byte(t[b - 1])) --b;
        if (b == p.lf_begin || (b > 0 && t[b - 1] != '\n')) return;
        const std::string_view before = t.substr(b, p.lf_begin - b);
        const std::string_view first_line = std::string_view(a.replacement).substr(0, a.replacement.find('\n'));
        const bool blanks_only = !has_visible_text(first_line);
        if (!blanks_only && indentation(first_line) != before) return;
        p.lf_begin = b;
        p.begin = lf_.to_source(b);
    }

    // The last line of `s` (after its last newline) is not empty and ends in a blank.
    static bool ends_in_blanks(std::string_view s) { return !s.empty() && is_blank_byte(s.back()); }

    bool v3_folded() { return view3().folded(); }

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
            take_trailing_blanks(found, needle2.last_line_stripped);
            if (found.count) return decide(decided_by(MatchTier::trailing_whitespace), std::move(found), a);
        }

        const TolerantText needle3 = tolerant_text(a.needle, Tolerance{true, true});
        if (has_visible_text(needle3.text)) {
            const TolerantView& v = view3();
            if (v.folded() || needle3.text != needle2.text) {
                found = search(v.text(), needle3.text, needle3.last_line_stripped,
                               [&v](std::size_t p) { return v.to_source(p); });
                take_trailing_blanks(found, needle3.last_line_stripped);
                if (found.count) return decide(decided_by(MatchTier::unicode_normalized), std::move(found), a, true);
            }
            found = search_indentation(needle3.text);
            take_trailing_blanks(found, needle3.last_line_stripped);
            if (found.count) return decide(decided_by(MatchTier::indentation), std::move(found), a, v3_folded());
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
                const std::vector<std::size_t> nearest =
                    nearest_to_hint(found.places.size(), *options_.start_line_hint,
                                    [&](std::size_t i) { return found.places[i].lines.first; });
                if (nearest.size() == 1) chosen.push_back(&found.places[nearest.front()]);
            }
            if (chosen.empty()) return ambiguous(tier, found);
        }
        Match m;
        m.tier = tier;
        m.replacements.reserve(chosen.size());
        m.lines.reserve(chosen.size());
        const bool new_ends_in_blanks = ends_in_blanks(a.replacement);
        std::vector<Place> places;
        places.reserve(chosen.size());
        for (const Place* chosen_place : chosen) {
            Place extended = *chosen_place;
            // new_string's last line ends in blanks and the file's line has only blanks after the
            // place: the caller wrote that line's end, so the file's blanks are not added to it.
            if (new_ends_in_blanks && !ends_in_blanks(a.needle)) take_trailing_blanks_of(extended);
            take_leading_blanks_of(extended, a);
            places.push_back(std::move(extended));
        }
        // Two places of replace_all whose blanks meet (old_string ends where the next begins, on one
        // line of blanks) would overlap: those two keep their blanks and are replaced as found.
        for (std::size_t i = 1; i < places.size(); ++i) {
            if (places[i].lf_begin >= places[i - 1].lf_end) continue;
            places[i - 1] = *chosen[i - 1];
            places[i] = *chosen[i];
        }
        for (const Place& extended : places) {
            const Place* p = &extended;
            Replacement r;
            r.begin = p->begin;
            r.end = p->end;
            if (!p->invalid_bytes.empty()) {
                r.text = restore_invalid_bytes(a.needle, a.replacement, p->invalid_bytes);
            } else if (const std::string_view region = lf_.text().substr(p->lf_begin, p->lf_end - p->lf_begin);
                       region != a.needle) {
                // A tolerant place: the lines the caller did not change keep the file's bytes.
                FitRequest fit{a.needle,
                               region,
                               a.replacement,
                               p->shift ? &*p->shift : nullptr,
                               folded,
                               lf_.text(),
                               lf_.text().substr(0, p->lf_begin)};
                auto fitted = fit_replacement(fit);
                if (!fitted) return unclear_indentation(tier, p->lines, fitted.error());
                r.text = std::move(fitted.value());
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
        err.message = ambiguous_match_message(options_, tier, err.places, found.count);
        return base::fail(std::move(err));
    }

    base::Result<Match, MatchError> unclear_indentation(MatchTier tier, const LineRange& place,
                                                        const FitProblem& problem) {
        MatchError err;
        err.kind = MatchErrorKind::unclear_indentation;
        err.tier = tier;
        err.region = place;
        err.message =
            unclear_indentation_message(options_, place, problem.caller_indentation, problem.file_indentation_a,
                                        problem.file_indentation_b, problem.replacement_line);
        return base::fail(std::move(err));
    }

    base::Result<Match, MatchError> not_found(const Attempt& a) {
        const std::string_view lf = lf_.text();
        // "Already applied" only for a distinctive new text (a few visible bytes, found once):
        // a short or repeated one says nothing about this edit.
        const auto visible =
            static_cast<std::size_t>(std::count_if(a.replacement.begin(), a.replacement.end(), is_visible_byte));
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
                err.message = already_applied_message(options_, one[0].lines);
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
    std::optional<LineTable> lines3_;
    std::optional<std::vector<std::size_t>> invalid_;  // the LF view's bytes that are not UTF-8
};

}  // namespace

base::Result<Match, MatchError> match_edit(std::string_view file_bytes, const EditSpec& spec,
                                           const MatchOptions& options) {
    if (spec.old_string.empty()) {
        MatchError err;
        err.kind = MatchErrorKind::empty_old_string;
        err.message = empty_old_string_message(options);
        return base::fail(std::move(err));
    }
    if (spec.old_string == spec.new_string) {
        MatchError err;
        err.kind = MatchErrorKind::identical;
        err.message = identical_message(options);
        return base::fail(std::move(err));
    }
    Matcher matcher(file_bytes, spec, options);
    return matcher.run();
}

}  // namespace text
