// The `insert` tool: whole lines at a line boundary (0 = before line 1, N = after line N,
// -1 = at the end), in the file's line-ending style. After line N only when this session has read
// (or written) the file and it has not changed since: the number must be one the model saw.
#include "tools/pipeline/change.hpp"
#include "tools/catalog.hpp"
#include "tools/pipeline/change_messages.hpp"
#include "text/bytes/splice.hpp"

namespace tools {

struct InsertArgs {
    std::string file_path;
    long long line = 0;
    std::string text;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InsertArgs, file_path, line, text, dry_run)

asio::awaitable<ToolResult> run_insert(CallContext& ctx, InsertArgs args) {
    ChangeRequest request("insert", std::move(args.file_path), args.dry_run);
    const ledger::FileStates& states = ctx.file_states;
    request.planner = [line = args.line, text_to_insert = std::move(args.text), &states](
                          const FileSnapshot& before, const std::string& display) -> base::Result<Plan> {
        // A line number means something only on the content it was read from. Line 0 (the top)
        // and -1 (the end) name no line, so they need no read, as an edit needs none.
        if (line > 0) {
            if (auto seen =
                    seen_and_unchanged(states, before, display, insert_by_number_reason(line), insert_again_next());
                !seen)
                return base::fail(std::move(seen).error());
        }
        auto inserted = text::insert_lines(before.file.bytes, line, text_to_insert);
        if (!inserted)
            return plan_error(display + ": " + inserted.error().message, base::ErrorReason::invalid_arguments);
        Plan plan;
        plan.new_bytes = NewBytes(text::SplicedBytes{inserted->at, 0, std::move(inserted->text)});
        plan.replacements = 1;
        plan.extra["inserted_at_line"] = inserted->first_line;
        plan.extra["inserted_lines"] = inserted->line_count;
        return plan;
    };
    co_return co_await run_change(ctx, std::move(request));
}

const ToolSpec& insert_tool() {
    static const ToolSpec spec = define_tool("insert", &run_insert,
                                             {
                                                 .kind = ToolKind::change,
                                                 .safety_arguments = "`dry_run` (or `preview`)",
                                                 .summary = "Insert whole lines at a line number",
                                             });
    return spec;
}

}  // namespace tools
