// The planner: locate every block on the original bytes (matcher, anchors, stated lines, similarity),
// check that no two overlap, splice them at once, then settle the final newline.
#include "text/patch_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <utility>

#include "text/byte_scan.hpp"
#include "text/file_facts.hpp"
#include "text/matcher.hpp"
#include "text/near_miss.hpp"
#include "text/normalized_view.hpp"
#include "text/patch_similarity.hpp"
#include "text/patch_text.hpp"
#include "text/splice.hpp"

namespace text {

namespace {

constexpr std::size_t kListedFailures = 10;
constexpr std::size_t kListedPlaces = 20;
constexpr std::size_t kMaxFuzzyNeedle = 64 * 1024;
constexpr std::size_t kNearMinBytes = 1 << 20;  // files this large try the lines near the hint first
constexpr std::size_t kNearLines = 2000;

struct Words {
    const char* block;     // "block"
    const char* Block;     // "Block"
    const char* old_name;  // passed to the matcher
    const char* new_name;
    const char* old_text;  // "The SEARCH text"
    const char* patch;     // "diff"
};

Words words_for(PatchFormat format) {
    switch (format) {
        case PatchFormat::search_replace:
            return {"block", "Block", "SEARCH", "REPLACE", "The SEARCH text", "diff"};
        case PatchFormat::unified:
            return {"hunk", "Hunk", "the hunk", "the hunk's new lines", "The hunk", "diff"};
        case PatchFormat::apply_patch:
            return {"chunk", "Chunk", "the chunk", "the chunk's new lines", "The chunk", "patch"};
    }
    return {"block", "Block", "SEARCH", "REPLACE", "The SEARCH text", "diff"};
}

std::size_t count_lines(std::string_view lf_text) {
    return count_byte(lf_text, '\n');
}

std::string_view first_line(std::string_view lf_text) {
    const std::size_t e = lf_text.find('\n');
    return e == std::string_view::npos ? lf_text : lf_text.substr(0, e);
}

std::string line_list(const std::vector<std::size_t>& lines, std::size_t total) {
    std::string s;
    for (std::size_t i = 0; i < lines.size() && i < kListedPlaces; ++i) {
        if (i) s += ", ";
        s += std::to_string(lines[i]);
    }
    const std::size_t shown = std::min(lines.size(), kListedPlaces);
    if (total > shown) s += ", and " + std::to_string(total - shown) + " more";
    return s;
}

// The original file, and the views of it the planner needs (lines are built on first use).
class FileText {
public:
    explicit FileText(std::string_view bytes) : bytes_(bytes) {
        detect_bom(bytes, &bom_);
        body_ = bytes.substr(bom_);
        final_newline_ = body_.empty() || body_.back() == '\n' || body_.back() == '\r';
        if (!final_newline_) {
            augmented_.reserve(bytes.size() + 1);
            augmented_.append(bytes);
            augmented_ += '\n';
        }
    }

    std::string_view bytes() const { return bytes_; }
    std::size_t bom() const { return bom_; }
    bool final_newline() const { return final_newline_; }
    // What the matcher searches: the bytes, with a "\n" after a last line that has none, so that
    // old lines (always ended by "\n") also match there.
    std::string_view haystack() const { return final_newline_ ? bytes_ : std::string_view(augmented_); }

    std::size_t line_count() { return lines().size(); }
    // Line n (1-based, 1..line_count) without its terminator.
    std::string_view line(std::size_t n) {
        const LineSpan& s = lines()[n - 1];
        return body_.substr(s.begin, s.end - s.begin);
    }
    // Offset in the bytes where line n starts; line_count()+1 is the end of the file.
    std::size_t line_begin(std::size_t n) {
        if (n <= 1) return bom_;
        if (n > line_count()) return bytes_.size();
        return bom_ + lines()[n - 1].begin;
    }
    // Offset in the bytes after line n's terminator.
    std::size_t line_end(std::size_t n) {
        if (n == 0) return bom_;
        if (n > line_count()) return bytes_.size();
        const LineSpan& s = lines()[n - 1];
        return bom_ + s.end + s.terminator_size;
    }

private:
    const std::vector<LineSpan>& lines() {
        if (!lines_) lines_ = split_lines(body_);
        return *lines_;
    }

    std::string_view bytes_;
    std::string_view body_;
    std::size_t bom_ = 0;
    bool final_newline_ = true;
    std::string augmented_;
    std::optional<std::vector<LineSpan>> lines_;
};

// Where one block goes.
struct Located {
    std::size_t block = 0;  // position in FilePatch::blocks
    std::size_t begin = 0;  // byte range of the original
    std::size_t end = 0;
    std::string text;       // the new text, "\n" newlines
    bool at_eof = false;    // the range reaches the end of the file
    bool append = false;    // an insertion at the very end: added after the splice
    std::size_t first_line = 0;
    std::size_t last_line = 0;  // first_line - 1 for an insertion
    std::string match;
    double similarity = 1.0;
};

class Planner {
public:
    Planner(std::optional<std::string_view> original, const FilePatch& file, const PlanOptions& options)
        : original_(original),
          file_(file),
          options_(options),
          words_(words_for(options.format)),
          name_(!file.path.empty()            ? file.path
                : !options.display_path.empty() ? std::string(options.display_path)
                                                : std::string("the file")),
          text_(original.value_or(std::string_view())) {}

    base::Result<FilePlan, PlanError> run() {
        switch (file_.action) {
            case FileAction::create: return create();
            case FileAction::remove: return remove();
            case FileAction::update: return update();
        }
        return update();
    }

private:
    // ---- update ----

    base::Result<FilePlan, PlanError> update() {
        if (!original_) {
            std::string how;
            switch (options_.format) {
                case PatchFormat::search_replace: how = "use write to create it"; break;
                case PatchFormat::unified: how = "send it as a new file (--- /dev/null, +++ b/PATH)"; break;
                case PatchFormat::apply_patch: how = "send it as \"*** Add File: PATH\""; break;
            }
            return whole_failure("not_found", name_ + " does not exist, so its " + std::string(words_.block) +
                                                  "s cannot be applied. To create it, " + how + ".");
        }
        std::vector<Located> located;
        located.reserve(file_.blocks.size());
        for (std::size_t i = 0; i < file_.blocks.size(); ++i) {
            if (auto l = locate(file_.blocks[i], i)) {
                previous_end_ = l->last_line;
                located.push_back(std::move(*l));
            }
        }
        if (failures_.empty()) check_overlaps(located);
        if (!failures_.empty()) return failure();

        std::vector<std::size_t> order(located.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const Located& x = located[a];
            const Located& y = located[b];
            if (x.append != y.append) return y.append;
            if (x.begin != y.begin) return x.begin < y.begin;
            return x.end < y.end;
        });
        std::vector<Replacement> replacements;
        for (const std::size_t i : order) {
            if (!located[i].append) replacements.push_back({located[i].begin, located[i].end, located[i].text});
        }
        const std::string_view bytes = text_.bytes();
        const std::string newline(dominant_newline(analyze(bytes)));
        auto spliced = splice(bytes, replacements, newline);
        if (!spliced.ok()) return whole_failure("overlap", "the changes could not be put together: " +
                                                               spliced.error().message + ".");
        std::string out = std::move(spliced.value());
        auto ends_line = [&](const std::string& s) {
            return s.size() <= text_.bom() || s.back() == '\n' || s.back() == '\r';
        };
        std::optional<std::size_t> eof_block;
        for (const std::size_t i : order) {
            const Located& l = located[i];
            if (l.append) {
                if (!ends_line(out)) out += newline;
                out += with_newlines(l.text, newline);
            }
            if (l.at_eof) eof_block = l.block;
        }
        if (eof_block) {
            const bool want = file_.blocks[*eof_block].final_newline.value_or(text_.final_newline());
            if (want) {
                if (!ends_line(out)) out += newline;
            } else if (out.size() > text_.bom()) {
                if (out.ends_with("\r\n")) {
                    out.resize(out.size() - 2);
                } else if (out.back() == '\n' || out.back() == '\r') {
                    out.pop_back();
                }
            }
        }

        FilePlan plan = base_plan();
        plan.bytes = std::move(out);
        for (const Located& l : located) {
            const PatchBlock& b = file_.blocks[l.block];
            BlockReport r;
            r.index = b.index;
            r.patch_line = b.patch_line;
            r.line = l.first_line;
            r.stated_line = b.start_line.value_or(0);
            r.match = l.match;
            r.similarity = l.similarity;
            plan.blocks.push_back(std::move(r));
        }
        return plan;
    }

    std::optional<Located> locate(const PatchBlock& b, std::size_t position) {
        if (b.old_text.empty()) return insertion(b, position);
        // Same lines on both sides: only a hunk that changes the final newline does something. It is
        // located with a stand-in new text (the matcher refuses identical ones) and changes no byte itself.
        const bool same_lines = b.old_text == b.new_text;
        if (same_lines && !b.final_newline) {
            add_failure(b, "identical", "it changes nothing: its old and new lines are the same. Put the changed "
                                        "lines in it, or leave it out.");
            return std::nullopt;
        }
        const std::string stand_in = same_lines ? b.new_text + '\x01' : std::string();
        const EditSpec spec{b.old_text, same_lines ? std::string_view(stand_in) : std::string_view(b.new_text), false};
        MatchOptions mo;
        mo.old_name = words_.old_name;
        mo.new_name = words_.new_name;

        // apply_patch: after the previous chunk and after the anchors, the first occurrence is meant.
        std::size_t region = 1;
        std::string anchor_note;
        if (b.after_previous && previous_end_ > 0) region = previous_end_ + 1;
        for (const std::string& anchor : b.anchors) {
            if (const auto line = find_anchor(anchor, region)) {
                region = *line + 1;
            } else {
                anchor_note = " (Its @@ line " + quote_patch_line(anchor) + " matches no line of the file either.)";
                break;
            }
        }
        if (region > 1 && !b.at_end_of_file && region <= text_.line_count()) {
            const std::size_t slice = text_.line_begin(region);
            MatchOptions first = mo;
            first.start_line_hint = 1;
            auto m = match_edit(text_.haystack().substr(slice), spec, first);
            if (m.ok() && aligned(m.value(), b, slice)) {
                return from_match(m.value(), position, slice, region - 1, same_lines);
            }
        }

        std::optional<std::size_t> hint = b.start_line;
        if (!hint && b.at_end_of_file) {
            const std::size_t k = count_lines(b.old_text);
            hint = text_.line_count() >= k ? text_.line_count() - k + 1 : 1;
        }
        if (!hint && region > 1) hint = region;
        mo.start_line_hint = hint;
        if (hint) {
            if (auto near = near_hint(b, spec, mo, *hint, position, same_lines)) return near;
        }
        auto m = match_edit(text_.haystack(), spec, mo);
        if (m.ok()) {
            if (!aligned(m.value(), b, 0)) return misaligned(b, m.value());
            return from_match(m.value(), position, 0, 0, same_lines);
        }
        MatchError& err = m.error();

        if (err.kind == MatchErrorKind::ambiguous && err.tier == MatchTier::exact) {
            if (const auto line = whole_line_choice(err, b, hint)) {
                mo.start_line_hint = *line;
                auto again = match_edit(text_.haystack(), spec, mo);
                if (again.ok() && aligned(again.value(), b, 0)) {
                    return from_match(again.value(), position, 0, 0, same_lines);
                }
            }
        }
        std::string fuzzy_note;
        if (err.kind == MatchErrorKind::not_found && options_.fuzzy_threshold < 1.0 && !same_lines) {
            auto f = fuzzy(b, position, hint, &fuzzy_note);
            if (f) return f;
            if (failed_) {
                failed_ = false;
                return std::nullopt;
            }
        }
        switch (err.kind) {
            case MatchErrorKind::ambiguous:
                add_failure(b, "ambiguous", ambiguous_message(err, b, hint) + anchor_note);
                break;
            case MatchErrorKind::already_applied:
                add_failure(b, "already_applied", err.message + anchor_note);
                break;
            case MatchErrorKind::identical:
                add_failure(b, "identical", err.message);
                break;
            case MatchErrorKind::empty_old_string:
            case MatchErrorKind::not_found:
                add_failure(b, "not_found", err.message + fuzzy_note + anchor_note);
                break;
        }
        return std::nullopt;
    }

    // A large file's fast path: the exact tier on the lines around the hint. An exact place at most
    // kNearLines from the hint is what the whole-file search would choose too (the nearest exact
    // place; a tie is reported by the matcher on the window as on the file), so only such a result is
    // taken; anything else goes to the whole file.
    std::optional<Located> near_hint(const PatchBlock& b, const EditSpec& spec, const MatchOptions& mo,
                                     std::size_t hint, std::size_t position, bool same_lines) {
        if (text_.bytes().size() < kNearMinBytes) return std::nullopt;
        const std::size_t count = text_.line_count();
        const std::size_t k = count_lines(b.old_text);
        const std::size_t first = hint > kNearLines ? hint - kNearLines : 1;
        if (first > count) return std::nullopt;
        const std::size_t last = hint + kNearLines + k;
        const std::size_t from = text_.line_begin(first);
        const std::size_t to = last >= count ? text_.haystack().size() : text_.line_end(last);
        MatchOptions window = mo;
        window.start_line_hint = hint - (first - 1);
        auto m = match_edit(text_.haystack().substr(from, to - from), spec, window);
        if (!m.ok() || m->tier != MatchTier::exact || !aligned(m.value(), b, from)) return std::nullopt;
        const std::size_t line = m->lines.front().first + (first - 1);
        if ((line > hint ? line - hint : hint - line) > kNearLines) return std::nullopt;
        return from_match(m.value(), position, from, first - 1, same_lines);
    }

    // Blocks are whole lines. When old_text starts with an empty line, the matcher (which searches
    // text, not lines) could take the newline that ends some line for it; such a place is not one.
    bool aligned(const Match& m, const PatchBlock& b, std::size_t byte_offset) const {
        if (b.old_text.empty() || b.old_text.front() != '\n') return true;
        const std::size_t begin = m.replacements.front().begin + byte_offset;
        const std::string_view bytes = text_.bytes();
        if (begin <= text_.bom() || begin > bytes.size()) return true;
        const char before = bytes[begin - 1];
        return before == '\n' || (before == '\r' && (begin >= bytes.size() || bytes[begin] != '\n'));
    }

    std::nullopt_t misaligned(const PatchBlock& b, const Match& m) {
        const std::size_t line = m.lines.front().first;
        add_failure(b, "not_found", std::string(words_.old_text) + " starts with an empty line, but in " + name_ +
                                        " the lines that follow it (from line " + std::to_string(line + 1) +
                                        ") come right after line " + std::to_string(line) +
                                        ", which is not empty. Remove the empty first line (from the new lines "
                                        "too, if they start with one), or copy the lines exactly from the file.");
        return std::nullopt;
    }

    // `keeps_bytes`: the block only locates a place (a final-newline-only hunk) and changes no byte.
    Located from_match(const Match& m, std::size_t position, std::size_t byte_offset, std::size_t line_offset,
                       bool keeps_bytes) {
        const Replacement& r = m.replacements.front();
        const std::size_t size = text_.bytes().size();
        Located l;
        l.block = position;
        l.begin = std::min(r.begin + byte_offset, size);
        l.end = std::min(r.end + byte_offset, size);
        l.at_eof = r.end + byte_offset >= size;
        l.text = r.text;
        if (keeps_bytes) {
            l.begin = l.end;
            l.text.clear();
        }
        l.first_line = m.lines.front().first + line_offset;
        l.last_line = m.lines.front().last + line_offset;
        l.match = to_string(m.tier);
        return l;
    }

    // An exact-tier ambiguity where only one place starts at the start of a line (or only one is
    // nearest the stated line among those): its line. Blocks are whole lines.
    std::optional<std::size_t> whole_line_choice(const MatchError& err, const PatchBlock& b,
                                                 std::optional<std::size_t> hint) {
        if (err.places.size() != err.place_count) return std::nullopt;
        const std::string_view first = first_line(b.old_text);
        std::vector<std::size_t> whole;
        for (const LineRange& p : err.places) {
            if (p.first >= 1 && p.first <= text_.line_count() && text_.line(p.first) == first) whole.push_back(p.first);
        }
        if (whole.size() == 1) return whole.front();
        if (whole.size() < 2 || !hint) return std::nullopt;
        auto distance = [&](std::size_t line) { return line > *hint ? line - *hint : *hint - line; };
        std::size_t best = whole.front();
        bool tie = false;
        for (std::size_t i = 1; i < whole.size(); ++i) {
            if (distance(whole[i]) < distance(best)) {
                best = whole[i];
                tie = false;
            } else if (distance(whole[i]) == distance(best)) {
                tie = true;
            }
        }
        if (tie) return std::nullopt;
        return best;
    }

    std::optional<std::size_t> find_anchor(const std::string& anchor, std::size_t from) {
        const std::size_t count = text_.line_count();
        const std::string_view trimmed = trim_both(anchor);
        for (int pass = 0; pass < 2; ++pass) {
            auto same = [&](std::size_t n) {
                return pass == 0 ? text_.line(n) == anchor : trim_both(text_.line(n)) == trimmed;
            };
            for (std::size_t n = std::max<std::size_t>(from, 1); n <= count; ++n) {
                if (same(n)) return n;
            }
            for (std::size_t n = 1; n < from && n <= count; ++n) {
                if (same(n)) return n;
            }
        }
        return std::nullopt;
    }

    std::optional<Located> insertion(const PatchBlock& b, std::size_t position) {
        const std::size_t count = text_.line_count();
        std::size_t after = count;
        if (b.start_line) {
            after = *b.start_line;
            if (after > count) {
                add_failure(b, "bad_line", "it adds lines after line " +
                                               std::to_string(after) + ", but " + name_ + " has " +
                                               std::to_string(count) + (count == 1 ? " line" : " lines") +
                                               ". Correct the line number in its header (0 puts the lines "
                                               "before line 1), or add context lines around the new ones.");
                return std::nullopt;
            }
        } else if (!b.anchors.empty()) {
            std::size_t region = b.after_previous && previous_end_ > 0 ? previous_end_ + 1 : 1;
            for (const std::string& anchor : b.anchors) {
                const auto line = find_anchor(anchor, region);
                if (!line) {
                    add_failure(b, "not_found", "its @@ line " + quote_patch_line(anchor) +
                                                    " matches no line of " + name_ +
                                                    ", so there is no place to add its lines. Copy the @@ "
                                                    "line exactly from the file, or add context lines.");
                    return std::nullopt;
                }
                region = *line + 1;
            }
            after = region - 1;
        }
        Located l;
        l.block = position;
        l.begin = l.end = text_.line_begin(after + 1);
        l.append = l.begin >= text_.bytes().size();
        l.at_eof = l.append;
        l.text = b.new_text;
        l.first_line = after + 1;
        l.last_line = after;
        l.match = "inserted";
        return l;
    }

    std::optional<Located> fuzzy(const PatchBlock& b, std::size_t position, std::optional<std::size_t> hint,
                                 std::string* note) {
        const double threshold = std::clamp(options_.fuzzy_threshold, 0.5, 1.0);
        std::string old_text = b.old_text;
        std::string new_text = b.new_text;
        if (auto stripped = strip_line_number_prefixes(old_text)) {
            old_text = std::move(*stripped);
            if (auto new_stripped = strip_line_number_prefixes(new_text)) new_text = std::move(*new_stripped);
        }
        const std::size_t k = count_lines(old_text);
        const std::string_view needle = std::string_view(old_text).substr(0, old_text.size() - 1);
        if (k == 0 || needle.size() > kMaxFuzzyNeedle) return std::nullopt;
        const std::size_t count = text_.line_count();
        if (fuzzy_lines_.size() != count) {
            fuzzy_lines_.reserve(count);
            for (std::size_t n = 1; n <= count; ++n) fuzzy_lines_.push_back(text_.line(n));
        }
        if (fuzzy_spent_ >= options_.fuzzy_budget) {
            *note = " Similarity matching was not tried: the other blocks used up its budget; give the line where "
                    "the text starts.";
            return std::nullopt;
        }
        // Without a stated line the whole file is ranked; with one, the lines around it. Either way a
        // place is taken only when it is the most similar, at least as similar as the threshold, and
        // clearly (fuzzy_margin) ahead of every other place; a search the budget cut short takes nothing.
        const std::size_t window = options_.fuzzy_window;
        std::size_t first = 1, last = count;
        if (hint) {
            first = *hint > window ? *hint - window : 1;
            last = *hint + window;
        }
        const double margin = std::clamp(options_.fuzzy_margin, 0.0, 0.5);
        const SimilarityRanking found = rank_similar_windows(fuzzy_lines_, needle, k, first, last, threshold, margin,
                                                             options_.fuzzy_budget - fuzzy_spent_);
        fuzzy_spent_ += found.cells;
        char percent[16];
        std::snprintf(percent, sizeof percent, "%.0f%%", threshold * 100.0);
        auto score = [](double similarity) {
            char s[16];
            std::snprintf(s, sizeof s, "%.2f", similarity);
            return std::string(s);
        };
        auto place = [&](const SimilarWindow& w) {
            return k == 1 ? "line " + std::to_string(w.first_line)
                          : "lines " + std::to_string(w.first_line) + "-" + std::to_string(w.first_line + k - 1);
        };
        const std::string where = hint ? "within " + std::to_string(window) + " lines of line " + std::to_string(*hint)
                                       : std::string("in the file");
        const bool qualifies = found.best && found.best->similarity + 1e-9 >= threshold;
        if (found.stopped) {
            const std::string searched =
                "Similarity matching stopped before it was sure: its work limit ran out after it had compared " +
                std::to_string(found.windows) + " of the " + std::to_string(found.candidates) +
                " places " + where + " that a quick count of shared characters could not rule out, and a place "
                "not compared could still be up to " + score(found.unscored_bound) + " similar";
            if (!qualifies) {
                *note = " " + searched + " (at least " + percent + " is needed), so nothing was applied. Give the "
                        "line where the text starts" +
                        (options_.format == PatchFormat::search_replace ? std::string(" (:start_line:)") : std::string()) +
                        ", so that only the lines near it are compared.";
                return std::nullopt;
            }
            add_failure(b, "ambiguous", std::string(words_.old_text) + " was not found as it is. " + searched +
                                            "; the most similar so far is " + place(*found.best) + " (" +
                                            score(found.best->similarity) + "), so nothing was applied at a place "
                                            "that might not be the best. " + next_for_ambiguity(found.best->first_line));
            failed_ = true;
            return std::nullopt;
        }
        if (!qualifies) {
            *note = " Similarity matching found no run of " + std::to_string(k) + (k == 1 ? " line" : " lines") + " " +
                    where + " that is at least " + percent + " similar to it" +
                    (found.best ? " (the most similar, " + place(*found.best) + ", is " +
                                      score(found.best->similarity) + ")"
                                : std::string()) +
                    ".";
            return std::nullopt;
        }
        const SimilarWindow* chosen = found.contenders.size() == 1 ? &found.contenders.front() : nullptr;
        if (!chosen && hint) {
            // Several places about as similar: the one nearest the stated line, when only one is nearest.
            auto distance = [&](std::size_t line) { return line > *hint ? line - *hint : *hint - line; };
            std::size_t nearest = distance(found.contenders.front().first_line);
            for (const SimilarWindow& w : found.contenders) nearest = std::min(nearest, distance(w.first_line));
            for (const SimilarWindow& w : found.contenders) {
                if (distance(w.first_line) != nearest) continue;
                if (chosen) {
                    chosen = nullptr;
                    break;
                }
                chosen = &w;
            }
        }
        if (!chosen) {
            std::string list;
            const std::size_t shown = std::min(found.contenders.size(), kListedPlaces);
            for (std::size_t i = 0; i < shown; ++i) {
                if (i) list += i + 1 == shown && shown == found.contenders.size() ? ", and " : ", ";
                list += place(found.contenders[i]) + " (" + score(found.contenders[i].similarity) + ")";
            }
            if (found.contenders.size() > shown) {
                list += ", and " + std::to_string(found.contenders.size() - shown) + " more";
            }
            add_failure(b, "ambiguous", std::string(words_.old_text) + " was not found as it is, and by similarity " +
                                            std::to_string(found.contenders.size()) + " places " + where +
                                            " are about as like it: " + list + ". A similar place is used only when "
                                            "it is at least " + score(margin) + " more similar than any other, so "
                                            "nothing was applied. " +
                                            next_for_ambiguity(found.contenders.front().first_line));
            failed_ = true;
            return std::nullopt;
        }
        const std::size_t start = chosen->first_line;
        const std::size_t end_line = start + k - 1;
        Located l;
        l.block = position;
        l.begin = text_.line_begin(start);
        l.end = text_.line_end(end_line);
        l.at_eof = l.end >= text_.bytes().size();
        l.text = std::move(new_text);
        l.first_line = start;
        l.last_line = end_line;
        l.match = "fuzzy";
        l.similarity = chosen->similarity;
        return l;
    }

    std::string next_for_ambiguity(std::size_t example_line) const {
        switch (options_.format) {
            case PatchFormat::search_replace:
                return "Give :start_line: with the line where the one meant starts (for example :start_line:" +
                       std::to_string(example_line) +
                       " right after <<<<<<< SEARCH), or include more of the surrounding lines in SEARCH so "
                       "that it matches only that place.";
            case PatchFormat::unified:
                return "Correct the line numbers in the hunk header (@@ -" + std::to_string(example_line) +
                       ",...), or include more context lines so that it matches only that place.";
            case PatchFormat::apply_patch:
                return "Put an @@ line before the chunk with a line of the file that comes before the place "
                       "meant (such as the first line of its function), or include more context lines.";
        }
        return "";
    }

    std::string ambiguous_message(const MatchError& err, const PatchBlock& b, std::optional<std::size_t> hint) const {
        std::vector<std::size_t> starts;
        for (const LineRange& p : err.places) starts.push_back(p.first);
        std::string m = std::string(words_.old_text) + " matches " + std::to_string(err.place_count) +
                        " places in " + name_;
        if (err.tier) {
            switch (*err.tier) {
                case MatchTier::exact: break;
                case MatchTier::trailing_whitespace: m += " when trailing whitespace is ignored"; break;
                case MatchTier::unicode_normalized: m += " when Unicode forms are normalized (NFKC) and typographic quotes, dashes and spaces read as ASCII"; break;
                case MatchTier::indentation: m += " when indentation is ignored"; break;
                case MatchTier::line_numbers: m += " once its line-number prefixes are removed"; break;
            }
        }
        m += " (starting at lines " + line_list(starts, err.place_count) + ")";
        if (hint && !starts.empty()) {
            auto distance = [&](std::size_t line) { return line > *hint ? line - *hint : *hint - line; };
            std::size_t nearest = distance(starts.front());
            for (const std::size_t s : starts) nearest = std::min(nearest, distance(s));
            std::vector<std::size_t> tied;
            for (const std::size_t s : starts) {
                if (distance(s) == nearest) tied.push_back(s);
            }
            m += ", and lines " + line_list(tied, tied.size()) + " are equally near the stated line " +
                 std::to_string(*hint);
        }
        m += ". " + next_for_ambiguity(starts.empty() ? b.start_line.value_or(1) : starts.front());
        return m;
    }

    void check_overlaps(const std::vector<Located>& located) {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < located.size(); ++i) {
            if (!located[i].append) order.push_back(i);
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            if (located[a].begin != located[b].begin) return located[a].begin < located[b].begin;
            return located[a].end < located[b].end;
        });
        for (std::size_t i = 1; i < order.size(); ++i) {
            const Located& a = located[order[i - 1]];
            const Located& c = located[order[i]];
            if (c.begin >= a.end) continue;
            const Located& first = a.block < c.block ? a : c;
            const Located& second = a.block < c.block ? c : a;
            const PatchBlock& fb = file_.blocks[first.block];
            const PatchBlock& sb = file_.blocks[second.block];
            auto where = [](const Located& l) {
                return l.last_line < l.first_line ? "before line " + std::to_string(l.first_line)
                       : l.last_line == l.first_line ? "line " + std::to_string(l.first_line)
                                                      : "lines " + std::to_string(l.first_line) + "-" +
                                                            std::to_string(l.last_line);
            };
            add_failure(sb, "overlap",
                        "it overlaps " + std::string(words_.block) + " " + std::to_string(fb.index) + " (line " +
                            std::to_string(fb.patch_line) + " of the " + words_.patch + "): " +
                            std::string(words_.block) + " " + std::to_string(fb.index) + " changes " + where(first) +
                            " and " + std::string(words_.block) + " " + std::to_string(sb.index) + " changes " +
                            where(second) + " of " + name_ + ". Every " + words_.block +
                            " is matched against the file as it is now, so two of them must not change the same "
                            "lines: merge them into one " + words_.block + ".");
        }
    }

    // ---- create, remove ----

    base::Result<FilePlan, PlanError> create() {
        std::string content;
        for (const PatchBlock& b : file_.blocks) content += b.new_text;
        if (!file_.blocks.empty() && file_.blocks.back().final_newline == false && !content.empty() &&
            content.back() == '\n') {
            content.pop_back();
        }
        if (original_ && !original_->empty()) {
            if (normalize_newlines(*original_) == content) {
                return whole_failure("already_applied", name_ + " already exists with exactly this content: the "
                                                                "patch looks already applied, so nothing was changed.");
            }
            const std::string how = options_.format == PatchFormat::apply_patch
                                        ? "\"*** Update File: " + name_ + "\" with the lines to change"
                                        : "a diff against its current content (--- a/" + name_ + ", +++ b/" +
                                              name_ + ")";
            return whole_failure("already_exists", name_ + " already exists (" + std::to_string(original_->size()) +
                                                       " bytes), so it cannot be created. To change it, send " +
                                                       how + "; read it first to see its lines.");
        }
        FilePlan plan = base_plan();
        plan.bytes = std::move(content);
        for (const PatchBlock& b : file_.blocks) plan.blocks.push_back(simple_report(b, "created", 1));
        return plan;
    }

    base::Result<FilePlan, PlanError> remove() {
        if (!original_) {
            return whole_failure("not_found", name_ + " does not exist, so it cannot be deleted.");
        }
        if (!file_.blocks.empty()) {
            std::string expected;
            for (const PatchBlock& b : file_.blocks) expected += b.old_text;
            std::string actual = normalize_newlines(original_->substr(text_.bom()));
            if (!actual.empty() && actual.back() != '\n') actual += '\n';
            if (expected != actual) {
                std::size_t line = 1, at = 0;
                while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) {
                    if (expected[at] == '\n') ++line;
                    ++at;
                }
                auto line_at = [](const std::string& s, std::size_t pos) {
                    const std::size_t b = s.rfind('\n', pos == 0 ? 0 : pos - 1);
                    const std::size_t begin = (b == std::string::npos || pos == 0) ? 0 : b + 1;
                    const std::size_t e = s.find('\n', begin);
                    return std::string_view(s).substr(begin, (e == std::string::npos ? s.size() : e) - begin);
                };
                std::string detail;
                if (at >= actual.size()) {
                    detail = "the file ends before line " + std::to_string(line);
                } else if (at >= expected.size()) {
                    detail = "the file goes on after line " + std::to_string(line - 1) + " of what the " +
                             words_.patch + " removes";
                } else {
                    detail = "at line " + std::to_string(line) + " the file has " +
                             quote_patch_line(visible_whitespace(line_at(actual, at))) + " and the " + words_.patch +
                             " has " + quote_patch_line(visible_whitespace(line_at(expected, at)));
                }
                return whole_failure("not_found", "the " + std::string(words_.patch) + " deletes " + name_ +
                                                      ", but the lines it shows as removed are not the file's "
                                                      "content (" + detail + "). Read the file and send the "
                                                      "deletion again with its current lines.");
            }
        }
        FilePlan plan = base_plan();
        for (const PatchBlock& b : file_.blocks) plan.blocks.push_back(simple_report(b, "deleted", 1));
        return plan;
    }

    // ---- results ----

    FilePlan base_plan() const {
        FilePlan plan;
        plan.action = file_.action;
        plan.path = file_.path;
        plan.move_to = file_.move_to;
        return plan;
    }

    static BlockReport simple_report(const PatchBlock& b, const char* match, std::size_t line) {
        BlockReport r;
        r.index = b.index;
        r.patch_line = b.patch_line;
        r.line = line;
        r.stated_line = b.start_line.value_or(0);
        r.match = match;
        return r;
    }

    void add_failure(const PatchBlock& b, std::string kind, std::string message) {
        BlockFailure f;
        f.index = b.index;
        f.patch_line = b.patch_line;
        f.kind = std::move(kind);
        f.message = std::move(message);
        failures_.push_back(std::move(f));
    }

    base::Result<FilePlan, PlanError> whole_failure(std::string kind, std::string message) {
        BlockFailure f;
        f.kind = std::move(kind);
        f.message = message;
        PlanError e;
        e.message = std::move(message) + " Nothing was changed.";
        e.failures.push_back(std::move(f));
        return base::fail(std::move(e));
    }

    base::Result<FilePlan, PlanError> failure() {
        PlanError e;
        std::sort(failures_.begin(), failures_.end(),
                  [](const BlockFailure& a, const BlockFailure& b) { return a.index < b.index; });
        const std::size_t total = file_.blocks.size();
        auto label = [&](const BlockFailure& f) {
            return std::string(words_.Block) + " " + std::to_string(f.index) + " (line " +
                   std::to_string(f.patch_line) + " of the " + words_.patch + ")";
        };
        std::string& m = e.message;
        if (failures_.size() == 1) {
            m = label(failures_.front()) + " could not be applied to " + name_ + ": " + failures_.front().message;
        } else {
            m = std::to_string(failures_.size()) + " of the " + std::to_string(total) + " " + words_.block + "s for " +
                name_ + " could not be applied.";
            for (std::size_t i = 0; i < failures_.size() && i < kListedFailures; ++i) {
                m += "\n\n" + label(failures_[i]) + ": " + failures_[i].message;
            }
            if (failures_.size() > kListedFailures) {
                m += "\n\n... and " + std::to_string(failures_.size() - kListedFailures) + " more.";
            }
        }
        m += "\nNothing was changed";
        if (total > 1) {
            m += ": no " + std::string(words_.block) + " was applied, so send the whole " + words_.patch +
                 " again with the failing " + words_.block + (failures_.size() > 1 ? "s" : "") + " fixed";
        }
        m += ".";
        e.failures = std::move(failures_);
        return base::fail(std::move(e));
    }

    std::optional<std::string_view> original_;
    const FilePatch& file_;
    const PlanOptions& options_;
    Words words_;
    std::string name_;
    FileText text_;
    std::vector<BlockFailure> failures_;
    std::size_t previous_end_ = 0;  // last line of the previous located block (apply_patch order)
    bool failed_ = false;           // fuzzy() recorded a failure itself
    std::vector<std::string_view> fuzzy_lines_;  // the file's lines, for similarity matching
    std::size_t fuzzy_spent_ = 0;                // Levenshtein cells spent on this file
};

}  // namespace

base::Result<FilePlan, PlanError> plan_file_patch(std::optional<std::string_view> original, const FilePatch& file,
                                            const PlanOptions& options) {
    Planner planner(original, file, options);
    return planner.run();
}

}  // namespace text
