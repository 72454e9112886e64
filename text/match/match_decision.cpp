// Deciding a match once a tier found places: which of them is taken (the only one, all of them with
// replace_all, or the one a line hint names), each extended over the blanks the caller wrote, and the
// replacement written for it; or the error when none can be taken, or when no tier found any.
#include <algorithm>
#include <optional>
#include <utility>

#include "text/bytes/byte_scan.hpp"
#include "text/bytes/byte_search.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/match_messages.hpp"
#include "text/match/match_places.hpp"
#include "text/match/near_miss.hpp"
#include "text/match/replacement_fit.hpp"
#include "text/match/stand_in_bytes.hpp"

namespace text {

namespace {

// The place extended to the end of its line when only blanks follow it there.
void take_trailing_blanks_of(const LfView& lf, MatchPlace& p) {
    const std::string_view t = lf.text();
    std::size_t e = p.lf_end;
    while (e < t.size() && t[e] != '\n' && is_blank_byte(t[e])) ++e;
    if (e == p.lf_end || (e < t.size() && t[e] != '\n')) return;
    p.lf_end = e;
    p.end = lf.to_source(e);
}
// The place extended back to the start of its line when only blanks precede it there and
// new_string's first line starts with exactly those blanks (or is blanks only) while
// old_string's does not start with a blank: the caller wrote that line's start, so the file's
// indentation is not added to the caller's (it would be doubled).
void take_leading_blanks_of(const LfView& lf, MatchPlace& p, const MatchAttempt& a) {
    if (a.needle.empty() || is_blank_byte(a.needle.front()) || a.replacement.empty() ||
        !is_blank_byte(a.replacement.front())) {
        return;
    }
    const std::string_view t = lf.text();
    std::size_t b = p.lf_begin;
    while (b > 0 && t[b - 1] != '\n' && is_blank_byte(t[b - 1])) --b;
    if (b == p.lf_begin || (b > 0 && t[b - 1] != '\n')) return;
    const std::string_view before = t.substr(b, p.lf_begin - b);
    const std::string_view first_line = std::string_view(a.replacement).substr(0, a.replacement.find('\n'));
    const bool blanks_only = !has_visible_text(first_line);
    if (!blanks_only && indentation(first_line) != before) return;
    p.lf_begin = b;
    p.begin = lf.to_source(b);
}

// The last line of `s` (after its last newline) is not empty and ends in a blank.
bool ends_in_blanks(std::string_view s) { return !s.empty() && is_blank_byte(s.back()); }

void assign_line_ranges(const LfView& lf, std::vector<MatchPlace>& places) {
    // Places are in file order and do not overlap: one forward count of newlines.
    const std::string_view t = lf.text();
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
    for (MatchPlace& p : places) {
        p.lines.first = line_of(p.lf_begin);
        p.lines.last = p.lf_end > p.lf_begin ? line_of(p.lf_end - 1) : p.lines.first;
    }
}

base::Result<Match, MatchError> ambiguous_error(const MatchOptions& options, MatchTier tier, const FoundPlaces& found) {
    MatchError err;
    err.kind = MatchErrorKind::ambiguous;
    err.tier = tier;
    err.place_count = found.count;
    for (const MatchPlace& p : found.places) err.places.push_back(p.lines);
    err.message = ambiguous_match_message(options, tier, err.places, found.count);
    return base::fail(std::move(err));
}

base::Result<Match, MatchError> unclear_indentation_error(const MatchOptions& options, MatchTier tier,
                                                          const LineRange& place, const FitProblem& problem) {
    MatchError err;
    err.kind = MatchErrorKind::unclear_indentation;
    err.tier = tier;
    err.region = place;
    err.message = unclear_indentation_message(options, place, problem.caller_indentation, problem.file_indentation_a,
                                              problem.file_indentation_b, problem.replacement_line);
    return base::fail(std::move(err));
}

}  // namespace

// A tolerant place reaches the end of its last line when only blanks follow it there: the
// tiers read lines without their trailing blanks, so a line new_string rewrites ends as
// new_string ends it, and a line it repeats keeps the file's bytes (replacement_fit).
// `to_newline`: old_string's last line ended in blanks the view dropped (typographic spaces
// too), so up to the newline is all blanks.
void take_trailing_blanks(const LfView& lf, FoundPlaces& found, bool to_newline) {
    const std::string_view t = lf.text();
    for (MatchPlace& p : found.places) {
        if (!to_newline) {
            take_trailing_blanks_of(lf, p);
            continue;
        }
        std::size_t e = p.lf_end;
        while (e < t.size() && t[e] != '\n') ++e;
        if (e == p.lf_end) continue;
        p.lf_end = e;
        p.end = lf.to_source(e);
    }
}

// `folded`: the places were found with Unicode folded, so the replacement takes the file's typography.
base::Result<Match, MatchError> decide_match(const MatchContext& c, MatchTier tier, FoundPlaces found,
                                             const MatchAttempt& a, bool folded) {
    assign_line_ranges(c.lf, found.places);
    std::vector<const MatchPlace*> chosen;
    if (c.spec.replace_all || found.count == 1) {
        for (const MatchPlace& p : found.places) chosen.push_back(&p);
    } else {
        if (a.line_hint) {
            for (const MatchPlace& p : found.places) {
                if (p.lines.first == *a.line_hint) chosen.push_back(&p);
            }
            if (chosen.size() != 1) chosen.clear();
        }
        if (chosen.empty() && c.options.start_line_hint) {
            const std::vector<std::size_t> nearest =
                nearest_to_hint(found.places.size(), *c.options.start_line_hint,
                                [&](std::size_t i) { return found.places[i].lines.first; });
            if (nearest.size() == 1) chosen.push_back(&found.places[nearest.front()]);
        }
        if (chosen.empty()) return ambiguous_error(c.options, tier, found);
    }
    Match m;
    m.tier = tier;
    m.replacements.reserve(chosen.size());
    m.lines.reserve(chosen.size());
    const bool new_ends_in_blanks = ends_in_blanks(a.replacement);
    std::vector<MatchPlace> places;
    places.reserve(chosen.size());
    for (const MatchPlace* chosen_place : chosen) {
        MatchPlace extended = *chosen_place;
        // new_string's last line ends in blanks and the file's line has only blanks after the
        // place: the caller wrote that line's end, so the file's blanks are not added to it.
        if (new_ends_in_blanks && !ends_in_blanks(a.needle)) take_trailing_blanks_of(c.lf, extended);
        take_leading_blanks_of(c.lf, extended, a);
        places.push_back(std::move(extended));
    }
    // Two places of replace_all whose blanks meet (old_string ends where the next begins, on one
    // line of blanks) would overlap: those two keep their blanks and are replaced as found.
    for (std::size_t i = 1; i < places.size(); ++i) {
        if (places[i].lf_begin >= places[i - 1].lf_end) continue;
        places[i - 1] = *chosen[i - 1];
        places[i] = *chosen[i];
    }
    for (const MatchPlace& extended : places) {
        const MatchPlace* p = &extended;
        Replacement r;
        r.begin = p->begin;
        r.end = p->end;
        if (!p->invalid_bytes.empty()) {
            r.text = restore_invalid_bytes(a.needle, a.replacement, p->invalid_bytes);
        } else if (const std::string_view region = c.lf.text().substr(p->lf_begin, p->lf_end - p->lf_begin);
                   region != a.needle) {
            // A tolerant place: the lines the caller did not change keep the file's bytes.
            FitRequest fit{a.needle,
                           region,
                           a.replacement,
                           p->shift ? &*p->shift : nullptr,
                           folded,
                           c.lf.text(),
                           c.lf.text().substr(0, p->lf_begin)};
            auto fitted = fit_replacement(fit);
            if (!fitted) return unclear_indentation_error(c.options, tier, p->lines, fitted.error());
            r.text = std::move(fitted.value());
        } else {
            r.text = a.replacement;
        }
        m.replacements.push_back(std::move(r));
        m.lines.push_back(p->lines);
    }
    return m;
}

base::Result<Match, MatchError> match_not_found(const MatchContext& c, const MatchAttempt& a) {
    const std::string_view lf = c.lf.text();
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
            MatchPlace p;
            p.lf_begin = hit;
            p.lf_end = hit + a.replacement.size();
            std::vector<MatchPlace> one{p};
            assign_line_ranges(c.lf, one);
            MatchError err;
            err.kind = MatchErrorKind::already_applied;
            err.region = one[0].lines;
            err.message = already_applied_message(c.options, one[0].lines);
            return base::fail(std::move(err));
        }
    }
    NearMiss near = explain_not_found(lf, a.needle, c.options.old_name);
    MatchError err;
    err.kind = MatchErrorKind::not_found;
    err.message = std::move(near.message);
    err.region = near.region;
    return base::fail(std::move(err));
}

}  // namespace text
