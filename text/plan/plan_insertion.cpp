// Locating by lines alone: `@@` anchors (apply_patch) and blocks that only add lines.
#include <algorithm>

#include "text/bytes/lines.hpp"
#include "text/plan/plan_locate.hpp"

namespace text {

std::optional<std::size_t> find_anchor(OriginalFile& file, const std::string& anchor, std::size_t from) {
    const std::size_t count = file.line_count();
    const std::string_view trimmed = trim_both(anchor);
    for (int pass = 0; pass < 2; ++pass) {
        auto same = [&](std::size_t n) {
            return pass == 0 ? file.line(n) == anchor : trim_both(file.line(n)) == trimmed;
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

Placement locate_insertion(PlanContext& ctx, const BlockAt& at) {
    const PatchBlock& b = at.block;
    const std::size_t count = ctx.file.line_count();
    std::size_t after = count;
    if (b.start_line) {
        after = *b.start_line;
        if (after > count) {
            return base::fail(
                Unplaced{BlockFailureKind::bad_line, insertion_past_end_message(ctx.subject, after, count)});
        }
    } else if (!b.anchors.empty()) {
        std::size_t region = b.after_previous && at.previous_end > 0 ? at.previous_end + 1 : 1;
        for (const std::string& anchor : b.anchors) {
            const auto line = find_anchor(ctx.file, anchor, region);
            if (!line) {
                return base::fail(Unplaced{BlockFailureKind::not_found, anchor_missing_message(ctx.subject, anchor)});
            }
            region = *line + 1;
        }
        after = region - 1;
    }
    Located l;
    l.block = at.position;
    l.begin = l.end = ctx.file.line_begin(after + 1);
    l.append = l.begin >= ctx.file.bytes().size();
    l.at_eof = l.append;
    l.text = b.new_text;
    l.first_line = after + 1;
    l.last_line = after;
    l.match = BlockMatch::inserted;
    return l;
}

}  // namespace text
