// The `edit` tool: replace one unique occurrence of old_string (or all, with replace_all), found
// by the matching tiers; an empty old_string creates a file that does not exist.
#include "tools/edit.hpp"

#include "tools/registry.hpp"
#include "text/matcher.hpp"
#include "text/splice.hpp"

namespace tools {

namespace {

base::ErrorReason reason_of(text::MatchErrorKind kind) {
    switch (kind) {
        case text::MatchErrorKind::not_found: return base::ErrorReason::not_found;
        case text::MatchErrorKind::already_applied: return base::ErrorReason::already_applied;
        case text::MatchErrorKind::ambiguous: return base::ErrorReason::ambiguous;
        case text::MatchErrorKind::empty_old_string:
        case text::MatchErrorKind::identical: return base::ErrorReason::invalid_arguments;
    }
    return base::ErrorReason::other;
}

}  // namespace

base::Result<Plan> apply_one_edit(const std::string& bytes, bool exists, const std::string& display, const OneEdit& edit,
                                  std::string_view newline, Plan plan) {
    const auto& [old_string, new_string, replace_all] = edit;
    if (old_string.empty()) {
        if (exists && !bytes.empty())
            return plan_error("old_string is empty, but " + display +
                                     " already exists and is not empty. To change part of it, put the exact text to "
                                     "replace in old_string (read it first); to replace the whole file, use write.",
                                     base::ErrorReason::exists);
        plan.new_bytes = new_string;
        plan.replacements += 1;
        return plan;
    }
    if (!exists)
        return plan_error("File not found: " + display +
                                 ". To create it, call edit with an empty old_string (or write) and the whole content in new_string.",
                                 base::ErrorReason::not_found);
    text::EditSpec spec{old_string, new_string, replace_all};
    auto match = text::match_edit(bytes, spec);
    if (!match) return plan_error(match.error().message, reason_of(match.error().kind));
    auto spliced = text::splice(bytes, match->replacements, newline);
    if (!spliced)
        return plan_error("Internal error while applying the edit: " + spliced.error().message, base::ErrorReason::internal);
    plan.new_bytes = std::move(spliced.value());
    plan.replacements += match->replacements.size();
    plan.match = match->tier;
    return plan;
}

asio::awaitable<ToolResult> run_edit(CallContext& ctx, EditArgs args) {
    ChangeRequest request("edit", std::move(args.file_path), args.dry_run);
    request.may_create = args.old_string.empty();
    request.planner = [edit = OneEdit{std::move(args.old_string), std::move(args.new_string), args.replace_all}](
                          const FileSnapshot& before, const std::string& display) {
        return apply_one_edit(before.file.bytes, before.exists, display, edit, text::dominant_newline(before.file.facts), Plan{});
    };
    co_return co_await run_change(ctx, std::move(request));
}

}  // namespace tools
