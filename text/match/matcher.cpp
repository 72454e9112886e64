// The matching tiers of edit/multiedit/apply_diff: exact, trailing whitespace, Unicode (NFKC, typography),
// indentation, line-number prefixes; each tolerant view is built only when the tiers before fail.
// The Matcher class keeps the lazily built views every tier shares; the decision among the places a
// tier found (match_decision.cpp), the indentation search, U+FFFD stand-ins, line-number prefixes and
// messages have files of their own.
#include "text/match/matcher.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "text/bytes/byte_scan.hpp"
#include "text/bytes/byte_search.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/match/indentation_search.hpp"
#include "text/match/line_number_prefixes.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/match_messages.hpp"
#include "text/match/match_places.hpp"
#include "text/match/normalized_view.hpp"
#include "text/match/stand_in_bytes.hpp"

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
        MatchAttempt first;
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
        std::optional<MatchAttempt> numbered;
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

        const MatchAttempt& basis = numbered && !numbered->needle.empty() ? *numbered : first;
        return match_not_found(context(), basis);
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

    void record(FoundPlaces& found, std::size_t lf_begin, std::size_t lf_end, std::optional<IndentShift> shift) {
        ++found.count;
        if (found.places.size() >= cap_) return;
        MatchPlace p;
        p.lf_begin = lf_begin;
        p.lf_end = lf_end;
        p.begin = lf_.to_source(lf_begin);
        p.end = lf_.to_source(lf_end);
        p.shift = shift;
        found.places.push_back(p);
    }

    // Every non-overlapping occurrence of `needle` in `hay`, mapped to the LF view by `to_lf`.
    template <class ToLf>
    FoundPlaces search(std::string_view hay, std::string_view needle, bool must_end_at_line_end, ToLf&& to_lf) {
        FoundPlaces found;
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
    FoundPlaces search_invalid_bytes(std::string_view needle) {
        FoundPlaces found;
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
    FoundPlaces search_indentation(std::string_view needle3) {
        FoundPlaces found;
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

    // The last line of `s` (after its last newline) is not empty and ends in a blank.
    static bool ends_in_blanks(std::string_view s) { return !s.empty() && is_blank_byte(s.back()); }

    bool v3_folded() { return view3().folded(); }

    MatchContext context() const { return {lf_, spec_, options_}; }

    // Tiers 1-4 for one needle; a result when a tier found something (or decided ambiguity).
    std::optional<base::Result<Match, MatchError>> try_tiers(const MatchAttempt& a, std::optional<MatchTier> label) {
        if (a.needle.empty()) return std::nullopt;
        auto decided_by = [&](MatchTier tier) { return label ? *label : tier; };
        const std::string_view lf = lf_.text();

        FoundPlaces found = search(lf, a.needle, false, [](std::size_t p) { return std::optional<std::size_t>(p); });
        if (found.count) return decide_match(context(), decided_by(MatchTier::exact), std::move(found), a);
        found = search_invalid_bytes(a.needle);
        if (found.count) return decide_match(context(), decided_by(MatchTier::exact), std::move(found), a);

        const TolerantText needle2 = tolerant_text(a.needle, Tolerance{true, false});
        if (has_visible_text(needle2.text) && (view2().changed() || needle2.text != a.needle)) {
            const TolerantView& v = view2();
            found = search(v.text(), needle2.text, needle2.last_line_stripped,
                           [&v](std::size_t p) { return v.to_source(p); });
            take_trailing_blanks(lf_, found, needle2.last_line_stripped);
            if (found.count)
                return decide_match(context(), decided_by(MatchTier::trailing_whitespace), std::move(found), a);
        }

        const TolerantText needle3 = tolerant_text(a.needle, Tolerance{true, true});
        if (has_visible_text(needle3.text)) {
            const TolerantView& v = view3();
            if (v.folded() || needle3.text != needle2.text) {
                found = search(v.text(), needle3.text, needle3.last_line_stripped,
                               [&v](std::size_t p) { return v.to_source(p); });
                take_trailing_blanks(lf_, found, needle3.last_line_stripped);
                if (found.count)
                    return decide_match(context(), decided_by(MatchTier::unicode_normalized), std::move(found), a,
                                        true);
            }
            found = search_indentation(needle3.text);
            take_trailing_blanks(lf_, found, needle3.last_line_stripped);
            if (found.count)
                return decide_match(context(), decided_by(MatchTier::indentation), std::move(found), a, v3_folded());
        }
        return std::nullopt;
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
