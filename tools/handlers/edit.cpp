// The `edit` tool: replace one unique occurrence of old_string (or all, with replace_all), found
// by the matching tiers; with expected_replacements, exactly that many or nothing; an empty
// old_string creates a file that does not exist.
#include "tools/handlers/edit.hpp"

#include "tools/catalog.hpp"
#include "tools/pipeline/change_messages.hpp"
#include "text/match/matcher.hpp"
#include "text/bytes/splice.hpp"

namespace tools {

struct EditArgs {
    std::string file_path;
    std::string old_string;
    std::string new_string;
    bool replace_all = false;
    std::int64_t expected_replacements = 0;  // 0: not given; else the places old_string must match
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EditArgs, file_path, old_string, new_string, replace_all,
                                                expected_replacements, dry_run)

base::ErrorReason match_error_reason(text::MatchErrorKind kind) {
    switch (kind) {
        case text::MatchErrorKind::not_found: return base::ErrorReason::not_found;
        case text::MatchErrorKind::already_applied: return base::ErrorReason::already_applied;
        case text::MatchErrorKind::ambiguous:
        case text::MatchErrorKind::unclear_indentation: return base::ErrorReason::ambiguous;
        case text::MatchErrorKind::empty_old_string:
        case text::MatchErrorKind::identical: return base::ErrorReason::invalid_arguments;
    }
    return base::ErrorReason::other;
}

base::Result<void> check_expected_replacements(const OneEdit& edit, const std::vector<text::LineRange>& lines,
                                               const std::string& display) {
    const std::int64_t expected = edit.expected_replacements;
    const auto found = static_cast<std::int64_t>(lines.size());
    if (expected <= 0 || found == expected) return {};
    std::string places;
    for (std::size_t i = 0; i < lines.size() && i < 20; ++i) places += (i ? ", " : "") + text::to_string(lines[i]);
    if (lines.size() > 20) places += ", ...";
    return base::fail(base::Failure{expected_replacements_message(found, display, places, expected),
                                    found > expected ? base::ErrorReason::ambiguous : base::ErrorReason::not_found});
}

base::Result<Plan> apply_one_edit(const std::string& bytes, bool exists, const std::string& display,
                                  const OneEdit& edit, std::string_view newline, Plan plan) {
    const auto& [old_string, new_string, replace_all, expected] = edit;
    if (old_string.empty()) {
        if (expected > 1)
            return plan_error(creation_counts_one_message(expected), base::ErrorReason::invalid_arguments);
        if (exists && !bytes.empty())
            return plan_error(empty_old_string_on_content_message(display), base::ErrorReason::exists);
        plan.new_bytes = new_string;
        plan.replacements += 1;
        return plan;
    }
    if (!exists) return plan_error(edit_target_missing_message(display), base::ErrorReason::not_found);
    // An expected count is checked against every place old_string matches.
    text::EditSpec spec{old_string, new_string, replace_all || expected > 0};
    auto match = text::match_edit(bytes, spec);
    if (!match) return plan_error(match.error().message, match_error_reason(match.error().kind));
    if (auto counted = check_expected_replacements(edit, match->lines, display); !counted)
        return base::fail(std::move(counted).error());
    // Kept as the span it replaces: the file's bytes are not copied (a big file is held once).
    auto spliced = text::splice_span(bytes, match->replacements, newline);
    if (!spliced)
        return plan_error("Internal error while applying the edit: " + spliced.error().message,
                          base::ErrorReason::internal);
    plan.new_bytes = NewBytes(std::move(spliced).value());
    plan.replacements += match->replacements.size();
    plan.match = match->tier;
    return plan;
}

asio::awaitable<ToolResult> run_edit(CallContext& ctx, EditArgs args) {
    ChangeRequest request("edit", std::move(args.file_path), args.dry_run);
    request.refuse_elisions = true;  // "# ... rest of the code unchanged ..." over the code it stands for
    request.may_create = args.old_string.empty();
    request.planner = [edit = OneEdit{std::move(args.old_string), std::move(args.new_string), args.replace_all,
                                      args.expected_replacements}](const FileSnapshot& before,
                                                                   const std::string& display) {
        return apply_one_edit(before.file.bytes, before.exists, display, edit,
                              text::dominant_newline(before.file.facts), Plan{});
    };
    co_return co_await run_change(ctx, std::move(request));
}

const ToolSpec& edit_tool() {
    static const ToolSpec spec =
        define_tool("edit", &run_edit,
                    {
                        .kind = ToolKind::change,
                        .safety_arguments = "`dry_run` (or `preview`), `expected_replacements`, `replace_all`",
                        .summary = "Replace one unique occurrence of a text (or all of them)",
                    });
    return spec;
}

}  // namespace tools
