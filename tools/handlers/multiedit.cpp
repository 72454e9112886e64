// The `multiedit` tool: several edits to one file, all or nothing, one write. By default each edit
// applies to the result of the one before; with `against: "original"` every edit is located on the
// file as it was and they are applied at once (pi's semantics). Errors name edits[i].
#include <algorithm>
#include <optional>
#include <string>

#include "tools/handlers/edit.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/multiedit_messages.hpp"
#include "text/match/matcher.hpp"
#include "text/bytes/splice.hpp"

namespace tools {

// What multiedit's edits are located on: the result of the edit before, or the file as it was.
enum class Against { previous, original };
NLOHMANN_JSON_SERIALIZE_ENUM(Against, {{Against::previous, "previous"}, {Against::original, "original"}})

struct MultieditArgs {
    std::string file_path;
    std::vector<OneEdit> edits;
    Against against = Against::previous;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MultieditArgs, file_path, edits, against, dry_run)

namespace {

struct Located {
    std::size_t edit = 0;  // index in edits[]
    text::Replacement replacement;
    text::LineRange lines;
};

// against "original": every edit matched on the file as it is, then all spliced in one pass.
// The tiers run from strict to tolerant (no match at all before them): the result reports the
// most tolerant one used.
base::Result<Plan> plan_against_original(const FileSnapshot& before, const std::string& display,
                                         const std::vector<OneEdit>& edits) {
    if (!before.exists) return plan_error(original_file_missing_message(display), base::ErrorReason::not_found);
    const std::string& bytes = before.file.bytes;
    std::vector<Located> located;
    Json tiers = Json::array();
    std::optional<text::MatchTier> most_tolerant;
    for (std::size_t i = 0; i < edits.size(); ++i) {
        if (edits[i].old_string.empty())
            return plan_error(empty_old_string_against_original_message(i), base::ErrorReason::invalid_arguments);
        text::EditSpec spec{edits[i].old_string, edits[i].new_string,
                            edits[i].replace_all || edits[i].expected_replacements > 0};
        auto match = text::match_edit(bytes, spec);
        if (match)
            if (auto counted = check_expected_replacements(edits[i], match->lines, display); !counted)
                return plan_error(replacements_count_failed_message(i, counted.error().message),
                                  counted.error().reason);
        if (!match) {
            const base::ErrorReason reason = match_error_reason(match.error().kind);
            return plan_error(edit_not_matched_in_original_message(i, match.error().message), reason);
        }
        for (std::size_t r = 0; r < match->replacements.size(); ++r)
            located.push_back({i, std::move(match->replacements[r]), match->lines[r]});
        tiers.push_back(text::to_string(match->tier));
        most_tolerant = std::max(most_tolerant, std::optional(match->tier));
    }
    std::stable_sort(located.begin(), located.end(),
                     [](const Located& a, const Located& b) { return a.replacement.begin < b.replacement.begin; });
    for (std::size_t k = 1; k < located.size(); ++k) {
        const Located& a = located[k - 1];
        const Located& b = located[k];
        if (b.replacement.begin >= a.replacement.end) continue;
        const Located& first = a.edit < b.edit ? a : b;
        const Located& second = a.edit < b.edit ? b : a;
        if (first.edit == second.edit) continue;  // one edit's own places never overlap
        return plan_error(edits_overlap_message(second.edit, second.lines, first.edit, first.lines),
                          base::ErrorReason::overlap);
    }
    std::vector<text::Replacement> replacements;
    replacements.reserve(located.size());
    for (Located& l : located) replacements.push_back(std::move(l.replacement));
    // Kept as the span the edits replace: the file's bytes are not copied.
    auto spliced = text::splice_span(bytes, replacements, text::dominant_newline(before.file.facts));
    if (!spliced) return plan_error(edits_splice_failed_message(spliced.error().message), base::ErrorReason::internal);
    Plan plan;
    plan.new_bytes = NewBytes(std::move(spliced).value());
    plan.replacements = replacements.size();
    plan.match = most_tolerant;
    plan.extra["matches"] = tiers;
    return plan;
}

// edits[i] matches several places in the file as the edits before it left it, but not in the file
// as it is: those edits made the other places. The matcher's advice (replace_all) would then change
// text the earlier edits wrote, which the caller did not ask for; this says what would work.
std::optional<std::string> ambiguity_made_by_earlier_edits(const std::string& original, const std::string& bytes,
                                                           const OneEdit& edit, std::size_t i) {
    const text::EditSpec spec{edit.old_string, edit.new_string, false};
    const auto now = text::match_edit(bytes, spec);
    if (now || now.error().kind != text::MatchErrorKind::ambiguous) return std::nullopt;
    const auto at_first = text::match_edit(original, spec);
    if (!at_first && at_first.error().kind == text::MatchErrorKind::ambiguous) return std::nullopt;
    return ambiguity_made_by_earlier_edits_message(i, now.error().place_count,
                                                   at_first ? at_first->lines.front().first : 0);
}

}  // namespace

asio::awaitable<ToolResult> run_multiedit(CallContext& ctx, MultieditArgs args) {
    ChangeRequest request("multiedit", std::move(args.file_path), args.dry_run);
    request.refuse_elisions = true;  // "# ... rest of the code unchanged ..." over the code it stands for
    std::vector<OneEdit> edits = std::move(args.edits);
    if (args.against == Against::original) {
        request.planner = [edits](const FileSnapshot& before, const std::string& display) {
            return plan_against_original(before, display, edits);
        };
        co_return co_await run_change(ctx, std::move(request));
    }
    request.may_create = !edits.empty() && edits.front().old_string.empty();
    request.planner = [edits](const FileSnapshot& before, const std::string& display) -> base::Result<Plan> {
        Plan plan;
        std::string bytes = before.file.bytes;
        bool exists = before.exists;
        Json tiers = Json::array();
        std::optional<text::MatchTier> most_tolerant;
        for (std::size_t i = 0; i < edits.size(); ++i) {
            if (i > 0 && edits[i].old_string.empty())
                return plan_error(only_first_edit_creates_message(i), base::ErrorReason::invalid_arguments);
            // The file's style as it was; a file created by edits[0] has what edits[0] gave it.
            const std::string_view newline = before.exists || i == 0 ? text::dominant_newline(before.file.facts)
                                                                     : text::dominant_newline(text::analyze(bytes));
            Plan step;
            step.replacements = plan.replacements;
            base::Result<Plan> one = apply_one_edit(bytes, exists, display, edits[i], newline, std::move(step));
            if (!one && i > 0 && one.error().reason == base::ErrorReason::ambiguous)
                if (auto made = ambiguity_made_by_earlier_edits(before.file.bytes, bytes, edits[i], i))
                    return plan_error(*made, base::ErrorReason::ambiguous);
            if (!one) return plan_error(edit_failed_message(i, one.error().message), one.error().reason);
            // Each edit's span replaced in place: one working copy of the file, not one per edit.
            if (const text::SplicedBytes* span = one->new_bytes.spliced())
                bytes.replace(span->at, span->replaced, span->with);
            else
                bytes = std::move(one->new_bytes).take_joined(bytes);
            exists = true;
            plan.replacements = one->replacements;
            tiers.push_back(tier_name(one->match));
            most_tolerant = std::max(most_tolerant, one->match);
        }
        // Kept as the span the edits changed, so the working copy goes with the plan.
        plan.new_bytes =
            before.exists ? NewBytes(text::spliced_between(before.file.bytes, bytes)) : NewBytes(std::move(bytes));
        plan.match = most_tolerant;
        plan.extra["matches"] = tiers;
        return plan;
    };
    co_return co_await run_change(ctx, std::move(request));
}

const ToolSpec& multiedit_tool() {
    static const ToolSpec spec = define_tool(
        "multiedit", &run_multiedit,
        {
            .kind = ToolKind::change,
            .safety_arguments = "`dry_run` (or `preview`), `edits[].expected_replacements`, `edits[].replace_all`",
            .summary = "Several edits to one file, all or nothing",
        });
    return spec;
}

}  // namespace tools
