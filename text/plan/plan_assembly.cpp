// The planner's assembly: overlap check, splice, appended insertions, final newline.
#include "text/plan/plan_assembly.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "text/bytes/file_facts.hpp"
#include "text/match/normalized_view.hpp"
#include "text/bytes/splice.hpp"

namespace text {

std::vector<BlockFailure> find_overlaps(const PlanSubject& subject, const FilePatch& patch,
                                        const std::vector<Located>& located) {
    std::vector<BlockFailure> failures;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < located.size(); ++i) {
        if (!located[i].append) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (located[a].begin != located[b].begin) return located[a].begin < located[b].begin;
        return located[a].end < located[b].end;
    });
    auto placed = [&](const Located& l) {
        const PatchBlock& b = patch.blocks[l.block];
        return PlacedLines{b.index, b.patch_line, l.first_line, l.last_line};
    };
    for (std::size_t i = 1; i < order.size(); ++i) {
        const Located& a = located[order[i - 1]];
        const Located& c = located[order[i]];
        if (c.begin >= a.end) continue;
        const Located& first = a.block < c.block ? a : c;
        const Located& second = a.block < c.block ? c : a;
        const PatchBlock& sb = patch.blocks[second.block];
        failures.push_back({sb.index, sb.patch_line, BlockFailureKind::overlap,
                            overlap_message(subject, placed(first), placed(second))});
    }
    return failures;
}

base::Result<std::string, std::string> assemble(const OriginalFile& file, const FilePatch& patch,
                                                const std::vector<Located>& located) {
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
    const std::string_view bytes = file.bytes();
    const std::string newline(dominant_newline(analyze(bytes)));
    auto spliced = splice(bytes, replacements, newline);
    if (!spliced.ok()) return base::fail(spliced.error().message);
    std::string out = std::move(spliced.value());
    auto ends_line = [&](const std::string& s) {
        return s.size() <= file.bom() || s.back() == '\n' || s.back() == '\r';
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
        const bool want = patch.blocks[*eof_block].final_newline.value_or(file.final_newline());
        if (want) {
            if (!ends_line(out)) out += newline;
        } else if (out.size() > file.bom()) {
            if (out.ends_with("\r\n")) {
                out.resize(out.size() - 2);
            } else if (out.back() == '\n' || out.back() == '\r') {
                out.pop_back();
            }
        }
    }
    return out;
}

}  // namespace text
