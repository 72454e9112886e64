// The `multiedit` tool: several edits to one file, each on the result of the one before, all or
// nothing, one write. Errors name edits[i].
#include "tools/change.hpp"
#include "tools/registry.hpp"
#include "tools/text/matcher.hpp"

namespace tools {

PlanOutcome apply_one_edit(const std::string& bytes, bool exists, const std::string& display, const std::string& old_string,
                           const std::string& new_string, bool replace_all, std::string_view newline, Plan& plan);

namespace {

struct EditArgs {
    std::string old_string;
    std::string new_string;
    bool replace_all = false;
};

// The tiers from strict to tolerant: the result reports the most tolerant one used.
int tolerance(const std::string& tier) {
    static const char* order[] = {"none", "exact", "trailing_whitespace", "unicode_normalized", "indentation", "line_numbers"};
    for (int i = 0; i < 6; ++i)
        if (tier == order[i]) return i;
    return 0;
}

}  // namespace

Handler multiedit_handler() {
    return [](CallContext& ctx, const Json& args) -> asio::awaitable<ToolResult> {
        ChangeRequest request;
        request.tool = "multiedit";
        request.file_path = args.at("file_path").get<std::string>();
        request.dry_run = args.value("dry_run", false);
        std::vector<EditArgs> edits;
        for (const auto& e : args.at("edits"))
            edits.push_back({e.at("old_string").get<std::string>(), e.at("new_string").get<std::string>(),
                             e.value("replace_all", false)});
        request.may_create = !edits.empty() && edits.front().old_string.empty();
        request.planner = [edits](const FileSnapshot& before, const std::string& display) -> PlanOutcome {
            Plan plan;
            std::string bytes = before.file.bytes;
            bool exists = before.exists;
            Json tiers = Json::array();
            std::string most_tolerant = "none";
            for (std::size_t i = 0; i < edits.size(); ++i) {
                if (i > 0 && edits[i].old_string.empty())
                    return PlanOutcome::fail("edits[" + std::to_string(i) +
                                             "]: old_string is empty; only the first edit may create the file. No edit was applied.",
                                             ErrorReason::invalid_arguments);
                Plan step;
                step.replacements = plan.replacements;
                // The file's style as it was; a file created by edits[0] has what edits[0] gave it.
                const std::string_view newline =
                    before.exists || i == 0 ? text::dominant_newline(before.file.facts)
                                            : text::dominant_newline(text::analyze(bytes));
                PlanOutcome one = apply_one_edit(bytes, exists, display, edits[i].old_string, edits[i].new_string,
                                                 edits[i].replace_all, newline, step);
                if (!one.plan)
                    return PlanOutcome::fail("edits[" + std::to_string(i) + "] failed, so no edit was applied (all or nothing)" +
                                             (i > 0 ? " — note that it is matched against the file as edits[0.." +
                                                          std::to_string(i - 1) + "] left it" : std::string()) +
                                             ":\n" + one.error,
                                             one.reason);
                bytes = std::move(one.plan->new_bytes);
                exists = true;
                plan.replacements = one.plan->replacements;
                tiers.push_back(one.plan->match);
                if (tolerance(one.plan->match) > tolerance(most_tolerant)) most_tolerant = one.plan->match;
            }
            plan.new_bytes = std::move(bytes);
            plan.match = most_tolerant;
            plan.extra["matches"] = tiers;
            return {std::move(plan), ""};
        };
        co_return co_await run_change(ctx, std::move(request));
    };
}

}  // namespace tools
