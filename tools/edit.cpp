// The `edit` tool: replace one unique occurrence of old_string (or all, with replace_all), found
// by the matching tiers; an empty old_string creates a file that does not exist.
#include "tools/change.hpp"
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

// Shared with multiedit: applies one edit to `bytes` in memory; inserted text takes `newline`.
PlanOutcome apply_one_edit(const std::string& bytes, bool exists, const std::string& display, const std::string& old_string,
                           const std::string& new_string, bool replace_all, std::string_view newline, Plan& plan) {
    if (old_string.empty()) {
        if (exists && !bytes.empty())
            return PlanOutcome::fail("old_string is empty, but " + display +
                                     " already exists and is not empty. To change part of it, put the exact text to "
                                     "replace in old_string (read it first); to replace the whole file, use write.",
                                     base::ErrorReason::exists);
        plan.new_bytes = new_string;
        plan.replacements += 1;
        return {std::move(plan), ""};
    }
    if (!exists)
        return PlanOutcome::fail("File not found: " + display +
                                 ". To create it, call edit with an empty old_string (or write) and the whole content in new_string.",
                                 base::ErrorReason::not_found);
    text::EditSpec spec{old_string, new_string, replace_all};
    auto match = text::match_edit(bytes, spec);
    if (!match) return PlanOutcome::fail(match.error().message, reason_of(match.error().kind));
    auto spliced = text::splice(bytes, match->replacements, newline);
    if (!spliced)
        return PlanOutcome::fail("Internal error while applying the edit: " + spliced.error().message, base::ErrorReason::internal);
    plan.new_bytes = std::move(spliced.value());
    plan.replacements += match->replacements.size();
    plan.match = text::to_string(match->tier);
    return {std::move(plan), ""};
}

Handler edit_handler() {
    return [](CallContext& ctx, const Json& args) -> asio::awaitable<ToolResult> {
        ChangeRequest request;
        request.tool = "edit";
        request.file_path = args.at("file_path").get<std::string>();
        request.dry_run = args.value("dry_run", false);
        std::string old_string = args.at("old_string").get<std::string>();
        std::string new_string = args.at("new_string").get<std::string>();
        const bool replace_all = args.value("replace_all", false);
        request.may_create = old_string.empty();
        request.planner = [old_string, new_string, replace_all](const FileSnapshot& before, const std::string& display) {
            Plan plan;
            return apply_one_edit(before.file.bytes, before.exists, display, old_string, new_string, replace_all,
                                  text::dominant_newline(before.file.facts), plan);
        };
        co_return co_await run_change(ctx, std::move(request));
    };
}

}  // namespace tools
