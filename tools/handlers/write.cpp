// The `write` tool: create a file, or overwrite one this session has read (or written) and that
// has not changed since (or whose changes since merge with this write's); with create_only, an
// existing file is refused. Over an existing file, its CRLF line endings and BOM are kept.
#include "tools/pipeline/change.hpp"
#include "tools/catalog.hpp"
#include "tools/pipeline/change_messages.hpp"
#include "text/diff/stale_merge.hpp"
#include "text/bytes/splice.hpp"

namespace tools {

struct WriteArgs {
    std::string file_path;
    std::string content;
    bool create_only = false;  // refuse an existing file
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WriteArgs, file_path, content, create_only, dry_run)

asio::awaitable<ToolResult> run_write(CallContext& ctx, WriteArgs args) {
    ChangeRequest request("write", std::move(args.file_path), args.dry_run);
    request.refuse_elisions = true;  // "# ... rest of the code unchanged ..." over the code it stands for
    request.may_create = true;
    ledger::FileStates& states = ctx.file_states;
    request.planner = [content = std::move(args.content), create_only = args.create_only, &states](
                          const FileSnapshot& before, const std::string& display) -> base::Result<Plan> {
        Plan plan;
        plan.replacements = 1;
        if (before.exists && create_only)
            return plan_error(create_only_exists_message(display), base::ErrorReason::exists);
        if (!before.exists) {
            plan.new_bytes = content;
            return plan;
        }
        const auto known = states.known_hash(before.file.path.real);
        if (!known) return plan_error(write_unread_message(display), base::ErrorReason::not_read);
        if (*known != before.file.fingerprint()) {
            // Changed since this session saw it: merge when what changed there and what this write
            // changes (relative to what the session saw) are different lines.
            const auto seen = states.seen_bytes(before.file.path.real);
            if (!seen) return plan_error(write_stale_message(display), base::ErrorReason::stale);
            // What the session saw is kept as it was on disk; a file in another encoding is planned as text.
            const auto seen_text = before.file.encoding.text_of(*seen);
            const std::string_view base = seen_text ? std::string_view(*seen_text) : std::string_view(*seen);
            text::AdaptedContent adapted = text::adapt_whole_content(base, content);
            auto merged =
                text::merge_stale_change(base, adapted.bytes, before.file.bytes, display,
                                         "since this session last read or wrote it", base::ErrorReason::stale);
            if (!merged) return base::fail(std::move(merged).error());
            plan.new_bytes = std::move(merged->bytes);
            if (!adapted.note.empty()) plan.notes.push_back(adapted.note);
            plan.notes.push_back(std::move(merged->note));
            return plan;
        }
        text::AdaptedContent adapted = text::adapt_whole_content(before.file.bytes, content);
        plan.new_bytes = std::move(adapted.bytes);
        if (!adapted.note.empty()) plan.notes.push_back(adapted.note);
        return plan;
    };
    co_return co_await run_change(ctx, std::move(request));
}

const ToolSpec& write_tool() {
    static const ToolSpec spec = define_tool(
        "write", &run_write,
        {
            .kind = ToolKind::change,
            .safety_arguments =
                "`dry_run` (or `preview`), `create_only` (or `no_clobber`, `if_not_exists`, `overwrite: false`)",
            .summary = "Create a file, or overwrite one read before",
        });
    return spec;
}

}  // namespace tools
