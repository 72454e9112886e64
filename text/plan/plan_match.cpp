// Locating a block with old lines by the matcher: after the previous chunk and the anchors
// (apply_patch), near the stated line first on large files, then on the whole file; an exact-tier
// ambiguity settled by whole lines; by similarity last, when the options allow it.
#include <algorithm>
#include <utility>

#include "text/bytes/byte_scan.hpp"
#include "text/plan/line_alignment.hpp"
#include "text/match/match_messages.hpp"
#include "text/plan/plan_locate.hpp"

namespace text {

namespace {

constexpr std::size_t kNearMinBytes = 1 << 20;  // files this large try the lines near the hint first
constexpr std::size_t kNearLines = 2000;
constexpr std::size_t kMaxLeftOut = 2;        // file lines a block may leave out between its old lines
constexpr std::size_t kMaxHeaderLeftOut = 3;  // ... when its unified header's counts say so

std::string_view first_line(std::string_view lf_text) {
    const std::size_t e = lf_text.find('\n');
    return e == std::string_view::npos ? lf_text : lf_text.substr(0, e);
}

class BlockMatcher {
public:
    BlockMatcher(PlanContext& ctx, const BlockAt& at) : ctx_(ctx), file_(ctx.file), at_(at), b_(at.block) {}

    Placement run(SimilarityBudget& budget) {
        // Same lines on both sides: only a hunk that changes the final newline does something. It is
        // located with a stand-in new text (the matcher refuses identical ones) and changes no byte itself.
        same_lines_ = b_.old_text == b_.new_text;
        if (same_lines_ && !b_.final_newline) return unplaced(BlockFailureKind::identical, identical_block_message());
        const std::string stand_in = same_lines_ ? b_.new_text + '\x01' : std::string();
        spec_ = EditSpec{b_.old_text, same_lines_ ? std::string_view(stand_in) : std::string_view(b_.new_text), false};
        MatchOptions mo;
        mo.old_name = ctx_.subject.words.old_name;
        mo.new_name = ctx_.subject.words.new_name;

        // apply_patch: after the previous chunk and after the anchors, the first occurrence is meant.
        std::size_t region = 1;
        std::string note_on_anchor;
        if (b_.after_previous && at_.previous_end > 0) region = at_.previous_end + 1;
        for (const std::string& anchor : b_.anchors) {
            if (const auto line = find_anchor(file_, anchor, region)) {
                region = *line + 1;
            } else {
                note_on_anchor = anchor_note(anchor);
                break;
            }
        }
        if (region > 1 && !b_.at_end_of_file && region <= file_.line_count()) {
            const std::size_t slice = file_.line_begin(region);
            MatchOptions first = mo;
            first.start_line_hint = 1;
            auto m = match_edit(file_.haystack().substr(slice), spec_, first);
            if (m.ok() && aligned(m.value(), slice)) return from_match(m.value(), slice, region - 1);
        }

        std::optional<std::size_t> hint = b_.start_line;
        if (!hint && b_.at_end_of_file) {
            const std::size_t k = count_byte(b_.old_text, '\n');
            hint = file_.line_count() >= k ? file_.line_count() - k + 1 : 1;
        }
        if (!hint && region > 1) hint = region;
        mo.start_line_hint = hint;
        // Before the fast path near the hint: the header may say lines were left out there.
        if (auto by_header = placed_by_header_counts()) return std::move(*by_header);
        // Its header's counts say it left lines out there, and added lines sit beside them: not
        // placed elsewhere either (a run of its lines found nearby, blank lines say, is no answer).
        if (header_why_not_ && header_why_not_->left_out_first) {
            const std::size_t first = *b_.start_line;
            const std::size_t last = first + *b_.stated_old_count - 1;
            std::string message = left_out_note(first, last, *header_why_not_, ", where its header's counts place it");
            message.erase(0, 1);
            message[0] = 'i';  // the reason alone: "its lines are at ..."
            return unplaced(BlockFailureKind::ambiguous, std::move(message));
        }
        if (hint) {
            if (auto near = near_hint(mo, *hint)) return std::move(*near);
        }
        auto m = match_edit(file_.haystack(), spec_, mo);
        if (m.ok()) {
            if (!aligned(m.value(), 0)) {
                return unplaced(BlockFailureKind::not_found,
                                misaligned_message(ctx_.subject, m.value().lines.front().first));
            }
            return from_match(m.value(), 0, 0);
        }
        const MatchError& err = m.error();

        if (err.kind == MatchErrorKind::ambiguous && err.tier == MatchTier::exact) {
            if (const auto line = whole_line_choice(err, hint)) {
                mo.start_line_hint = *line;
                auto again = match_edit(file_.haystack(), spec_, mo);
                if (again.ok() && aligned(again.value(), 0)) return from_match(again.value(), 0, 0);
            }
        }
        std::string alignment_note;
        if (err.kind == MatchErrorKind::not_found && !same_lines_) {
            if (auto aligned = placed_with_left_out_lines(alignment_note)) return std::move(*aligned);
        }
        std::string similarity_note;
        if (err.kind == MatchErrorKind::not_found && ctx_.options.fuzzy_threshold < 1.0 && !same_lines_) {
            SimilarityOutcome similar = locate_by_similarity(ctx_, at_, hint, budget);
            if (similar.place) return std::move(*similar.place);
            if (similar.failure) return base::fail(std::move(*similar.failure));
            similarity_note = std::move(similar.note);
        }
        switch (err.kind) {
            case MatchErrorKind::ambiguous:
                return unplaced(BlockFailureKind::ambiguous,
                                ambiguous_block_message(ctx_.subject, err, b_, hint) + note_on_anchor);
            case MatchErrorKind::already_applied:
                return unplaced(BlockFailureKind::already_applied, err.message + note_on_anchor);
            case MatchErrorKind::identical: return unplaced(BlockFailureKind::identical, err.message);
            case MatchErrorKind::unclear_indentation:
                return unplaced(BlockFailureKind::ambiguous, err.message + note_on_anchor);
            case MatchErrorKind::empty_old_string:
            case MatchErrorKind::not_found: break;
        }
        return unplaced(BlockFailureKind::not_found, err.message + alignment_note + similarity_note + note_on_anchor);
    }

private:
    static Placement unplaced(BlockFailureKind kind, std::string message) {
        return base::fail(Unplaced{kind, std::move(message)});
    }

    // A large file's fast path: the exact tier on the lines around the hint. An exact place at most
    // kNearLines from the hint is what the whole-file search would choose too (the nearest exact
    // place; a tie is reported by the matcher on the window as on the file), so only such a result is
    // taken; anything else goes to the whole file.
    std::optional<Located> near_hint(const MatchOptions& mo, std::size_t hint) {
        if (file_.bytes().size() < kNearMinBytes) return std::nullopt;
        const std::size_t count = file_.line_count();
        const std::size_t k = count_byte(b_.old_text, '\n');
        const std::size_t first = hint > kNearLines ? hint - kNearLines : 1;
        if (first > count) return std::nullopt;
        const std::size_t last = hint + kNearLines + k;
        const std::size_t from = file_.line_begin(first);
        const std::size_t to = last >= count ? file_.haystack().size() : file_.line_end(last);
        MatchOptions window = mo;
        window.start_line_hint = hint - (first - 1);
        auto m = match_edit(file_.haystack().substr(from, to - from), spec_, window);
        if (!m.ok() || m->tier != MatchTier::exact || !aligned(m.value(), from)) return std::nullopt;
        const std::size_t line = m->lines.front().first + (first - 1);
        if (line_distance(line, hint) > kNearLines) return std::nullopt;
        return from_match(m.value(), from, first - 1);
    }

    // Blocks are whole lines. When old_text starts with an empty line, the matcher (which searches
    // text, not lines) could take the newline that ends some line for it; such a place is not one.
    bool aligned(const Match& m, std::size_t byte_offset) const {
        if (b_.old_text.empty() || b_.old_text.front() != '\n') return true;
        const std::size_t begin = m.replacements.front().begin + byte_offset;
        const std::string_view bytes = file_.bytes();
        if (begin <= file_.bom() || begin > bytes.size()) return true;
        const char before = bytes[begin - 1];
        return before == '\n' || (before == '\r' && (begin >= bytes.size() || bytes[begin] != '\n'));
    }

    Located from_alignment(const AlignedChange& change) const {
        Located l;
        l.block = at_.position;
        l.begin = file_.line_begin(change.first_line);
        l.end = file_.line_end(change.last_line);
        l.at_eof = l.end >= file_.bytes().size();
        l.text = change.text;
        l.first_line = change.first_line;
        l.last_line = change.last_line;
        l.match = BlockMatch::aligned;
        return l;
    }

    // Of `alignments`, the change they all make, when they make one and the same; `why_not` gets
    // the reason when none can be written.
    std::optional<AlignedChange> one_change(const std::vector<LineAlignment>& alignments,
                                            std::optional<AlignmentFailure>* why_not,
                                            std::vector<AlignedChange>* distinct) {
        const std::vector<std::string_view> old_lines = block_lines(b_.old_text);
        const std::vector<std::string_view> new_lines = block_lines(b_.new_text);
        bool beside_left_out = false;  // some place has added lines that could go on either side of a line
        for (const LineAlignment& a : alignments) {
            auto change = apply_alignment(file_, old_lines, new_lines, a, b_.ops);
            if (!change) {
                if (change.error().left_out_first && !beside_left_out) {
                    beside_left_out = true;
                    if (why_not) *why_not = change.error();
                    why_place_ = {a.first(), a.last()};
                } else if (why_not && !*why_not) {
                    *why_not = change.error();
                    why_place_ = {a.first(), a.last()};
                }
                continue;
            }
            const bool known = std::any_of(distinct->begin(), distinct->end(),
                                           [&](const AlignedChange& c) { return same_change(file_, c, *change); });
            if (!known) distinct->push_back(std::move(change.value()));
        }
        // Another way of laying its lines there, or another place, that would guess: no answer.
        if (distinct->size() != 1 || beside_left_out) return std::nullopt;
        return distinct->front();
    }

    // A unified hunk whose header counts more old lines than it shows left lines out: when its old
    // lines are, in order, on exactly the lines its header spans (first on the stated line, last on
    // the line the count ends at), and not as one run there, that is where it goes.
    std::optional<Located> placed_by_header_counts() {
        if (!b_.stated_old_count || !b_.start_line || same_lines_ || b_.old_text.empty()) return std::nullopt;
        const std::vector<std::string_view> old_lines = block_lines(b_.old_text);
        const std::size_t k = old_lines.size();
        const std::size_t stated = *b_.stated_old_count;
        const std::size_t first = *b_.start_line;
        if (stated <= k || stated - k > kMaxHeaderLeftOut || first == 0) return std::nullopt;
        const std::size_t last = first + stated - 1;
        if (last > file_.line_count()) return std::nullopt;
        bool one_run = true;  // the counts were merely wrong: the old lines are there as one run
        for (std::size_t i = 0; i < k && one_run; ++i) one_run = file_.line(first + i) == old_lines[i];
        if (one_run) {
            note_end_lines_left_out(old_lines, first, stated, false);
            return std::nullopt;
        }
        std::vector<LineAlignment> spanning;
        for (LineAlignment& a : gap_alignments(file_, old_lines, stated - k, 64)) {
            if (a.first() == first && a.last() == last) spanning.push_back(std::move(a));
        }
        std::vector<AlignedChange> distinct;
        const auto change = one_change(spanning, &header_why_not_, &distinct);
        if (change) return from_alignment(*change);
        if (spanning.empty()) {
            bool run_at_end = true;  // its old lines are one run ending where the header's span ends
            for (std::size_t i = 0; i < k && run_at_end; ++i) run_at_end = file_.line(last - k + 1 + i) == old_lines[i];
            if (run_at_end) note_end_lines_left_out(old_lines, first, stated, true);
        }
        return std::nullopt;
    }

    // A hunk that starts or ends with added lines, whose old lines are one run at one end of the
    // lines its header spans, both counts saying the same number of lines more than it shows: it
    // left out the lines at the other end (a context line dropped), and its added lines could go on
    // either side of those. Recorded in header_why_not_ (refused), unless the file comes out the same.
    // `at_start`: the run ends the span (lines left out before it, beside leading added lines).
    void note_end_lines_left_out(const std::vector<std::string_view>& old_lines, std::size_t first, std::size_t stated,
                                 bool at_start) {
        const std::size_t k = old_lines.size();
        const std::vector<std::string_view> new_lines = block_lines(b_.new_text);
        if (!b_.stated_new_count || *b_.stated_new_count < new_lines.size() ||
            *b_.stated_new_count - new_lines.size() != stated - k || b_.ops.empty()) {
            return;
        }
        const std::size_t plain = at_start ? b_.ops.find_first_not_of('+') : b_.ops.find_last_not_of('+');
        if (plain == std::string::npos) return;
        const std::size_t count = at_start ? plain : b_.ops.size() - 1 - plain;  // the added lines at that end
        if (count == 0) return;
        const auto n = static_cast<std::ptrdiff_t>(count);
        const std::vector<std::string_view> added =
            at_start ? std::vector<std::string_view>(new_lines.begin(), new_lines.begin() + n)
                     : std::vector<std::string_view>(new_lines.end() - n, new_lines.end());
        header_why_not_ = at_start ? beside_left_out(file_, added, first, first + stated - k - 1)
                                   : beside_left_out(file_, added, first + k, first + stated - 1);
    }

    // Why the block cannot be written over its lines where they are, with the left-out lines: the
    // next call that works is the block again with those lines in it.
    std::string left_out_note(std::size_t first, std::size_t last, const AlignmentFailure& why,
                              std::string_view where = {}) const {
        if (!why.left_out_first) {
            return " Its lines are at " + lines_words(first, last) + " with lines it leaves out between them, but " +
                   why.why + "; add the left-out lines.";
        }
        const std::string left_out = lines_words(why.left_out_first, why.left_out_last);
        return " Its lines are at " + lines_words(first, last) + std::string(where) + ", but " + why.why +
               ". Send the " + std::string(ctx_.subject.words.block) + " again with " + left_out +
               " in it, as the file has " + (why.left_out_first == why.left_out_last ? "it" : "them") +
               ", and the added lines on the side they go.";
    }

    // A block not found as one run whose old lines are, in order, in one place of the file with a
    // line or two between them that it left out (a context line dropped): applied there when that
    // place is the only one, the left-out lines kept. `note` says why not, when it is relevant.
    std::optional<Located> placed_with_left_out_lines(std::string& note) {
        const std::vector<std::string_view> old_lines = block_lines(b_.old_text);
        const std::vector<LineAlignment> all = gap_alignments(file_, old_lines, kMaxLeftOut, 16);
        if (all.empty()) return std::nullopt;
        std::optional<AlignmentFailure> why_not;
        std::vector<AlignedChange> distinct;
        if (const auto change = one_change(all, &why_not, &distinct)) return from_alignment(*change);
        if (distinct.size() > 1) {
            note =
                " Its lines are in the file in order with lines it leaves out between them, but at " +
                list_items(
                    distinct.size(), 5, distinct.size(),
                    [&](std::size_t i) { return lines_words(distinct[i].first_line, distinct[i].last_line); }, true) +
                ", so which is meant cannot be told; add the left-out lines.";
        } else if (why_not) {
            note = left_out_note(why_place_.first, why_place_.second, *why_not);
        }
        return std::nullopt;
    }

    // A block that only locates a place (a final-newline-only hunk) changes no byte.
    Located from_match(const Match& m, std::size_t byte_offset, std::size_t line_offset) const {
        const Replacement& r = m.replacements.front();
        const std::size_t size = file_.bytes().size();
        Located l;
        l.block = at_.position;
        l.begin = std::min(r.begin + byte_offset, size);
        l.end = std::min(r.end + byte_offset, size);
        l.at_eof = r.end + byte_offset >= size;
        l.text = r.text;
        if (same_lines_) {
            l.begin = l.end;
            l.text.clear();
        }
        l.first_line = m.lines.front().first + line_offset;
        l.last_line = m.lines.front().last + line_offset;
        l.match = block_match(m.tier);
        return l;
    }

    // An exact-tier ambiguity where only one place starts at the start of a line (or only one is
    // nearest the stated line among those): its line. Blocks are whole lines.
    std::optional<std::size_t> whole_line_choice(const MatchError& err, std::optional<std::size_t> hint) {
        if (err.places.size() != err.place_count) return std::nullopt;
        const std::string_view first = first_line(b_.old_text);
        std::vector<std::size_t> whole;
        for (const LineRange& p : err.places) {
            if (p.first >= 1 && p.first <= file_.line_count() && file_.line(p.first) == first) whole.push_back(p.first);
        }
        if (whole.size() == 1) return whole.front();
        if (whole.size() < 2 || !hint) return std::nullopt;
        const std::vector<std::size_t> nearest =
            nearest_to_hint(whole.size(), *hint, [&](std::size_t i) { return whole[i]; });
        if (nearest.size() != 1) return std::nullopt;
        return whole[nearest.front()];
    }

    PlanContext& ctx_;
    OriginalFile& file_;
    const BlockAt& at_;
    const PatchBlock& b_;
    bool same_lines_ = false;
    EditSpec spec_;
    std::optional<AlignmentFailure> header_why_not_;  // why the lines its header spans could not take it
    std::pair<std::size_t, std::size_t> why_place_;   // the lines of the place one_change's why_not is about
};

}  // namespace

Placement locate_by_match(PlanContext& ctx, const BlockAt& at, SimilarityBudget& budget) {
    BlockMatcher matcher(ctx, at);
    return matcher.run(budget);
}

}  // namespace text
