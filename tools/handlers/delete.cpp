// The `delete` tool: a file (read first, unless read cannot show it) or an empty folder removed
// through the same transaction as every change; undo recreates a deleted file byte for byte.
#include <filesystem>

#include "os/hash.hpp"
#include "os/file_status.hpp"
#include "os/file_writes.hpp"
#include "os/system_paths.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/whole_file_change.hpp"
#include "tools/handlers/whole_file_messages.hpp"

namespace tools {

struct DeleteArgs {
    std::string file_path;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeleteArgs, file_path, dry_run)

namespace {

// The tool's own structured fields (built outside the coroutines: GCC 12 rejects a braced JSON
// list of string literals inside one).
Json deletion_fields(bool folder) { return {{"deleted", true}, {"folder", folder}}; }

// "a binary file of N bytes, sha256 X" for a file read cannot show; "" for text.
std::string opaque_facts(const FileSnapshot& file) {
    if (readable_text(file.file)) return {};
    return opaque_file_facts(file.file.facts.binary, file.file.bytes.size(), os::sha256_hex(file.file.bytes));
}

// An empty folder deleted: asked like a change (no diff: a sentence), removed with rmdir.
asio::awaitable<ToolResult> delete_empty_folder(CallContext& ctx, const os::ResolvedPath& path, bool dry_run) {
    for (const auto& root : ctx.workspace.roots())
        if (os::same_path(root, path.real))
            co_return ToolResult::error(root_not_deleted_message(path.display), base::ErrorReason::invalid_arguments);
    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, path.real);
    std::error_code looked;
    const bool empty =
        std::filesystem::is_empty(std::filesystem::path(reinterpret_cast<const char8_t*>(path.real.c_str())), looked);
    if (looked)
        co_return ToolResult::error(cannot_look_into_message(path.display, looked.message()),
                                    base::ErrorReason::io_error);
    if (!empty) co_return ToolResult::error(folder_not_empty_message(path.display), base::ErrorReason::not_a_file);
    WholeFileOutcome outcome;
    outcome.file_path = path.real;
    outcome.summary = empty_folder_summary(dry_run, path.display);
    outcome.fields = deletion_fields(true);
    if (dry_run) co_return report_whole_file(std::move(outcome), true, nullptr);
    ShownDiff shown;
    shown.paths.push_back(path.display + "/");
    shown.diff = empty_folder_shown_diff(path.display);
    ApprovalDecision decision = co_await ctx.approve(approval_request("delete", shown));
    if (decision.kind == ApprovalDecision::Kind::awaiting_review)
        co_return report_whole_file(std::move(outcome), false, &decision);
    if (auto answer = unless_approved(ctx, decision)) co_return std::move(*answer);
    if (auto removed = os::remove_empty_directory(path.real, ctx.settings.fsync); !removed)
        co_return ToolResult::error(cannot_delete_folder_message(path.display, removed.error().message),
                                    base::ErrorReason::io_error);
    outcome.notes.push_back(folder_not_recreated_note());
    co_return report_whole_file(std::move(outcome), false, &decision);
}

}  // namespace

asio::awaitable<ToolResult> run_delete(CallContext& ctx, DeleteArgs args) {
    auto resolved = resolve_existing(ctx, args.file_path, "delete", "file_path");
    if (!resolved) co_return ToolResult::error(std::move(resolved).error());
    const os::ResolvedPath path = std::move(resolved).value();
    if (os::stat_path(path.real).kind == os::FileKind::directory)
        co_return co_await delete_empty_folder(ctx, path, args.dry_run);

    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, path.real);
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);
    auto loaded = load_as_bytes(ctx, path);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot before = std::move(loaded).value();
    if (auto seen =
            seen_before_loss(ctx, before, path.display, deletion_loses_content_reason(), call_again_next("delete"));
        !seen)
        co_return ToolResult::error(std::move(seen).error());

    WholeFileOutcome outcome;
    outcome.file_path = path.real;
    outcome.diff = deletion_diff(before, 64 * 1024);
    const std::string opaque = opaque_facts(before);
    outcome.summary = deletion_summary(args.dry_run, path.display, outcome.diff.removals, opaque);
    if (!args.dry_run) outcome.notes.push_back(undo_recreates_note(path.display));
    outcome.fields = deletion_fields(false);

    Transaction change("delete", std::move(lanes));
    change.changes().push_back({std::move(before), "", true});
    co_return co_await carry_out_whole_file(ctx, change, std::move(outcome), path.display, {}, args.dry_run, true);
}

const ToolSpec& delete_tool() {
    static const ToolSpec spec = define_tool("delete", &run_delete,
                                             {
                                                 .kind = ToolKind::change,
                                                 .safety_arguments = "`dry_run` (or `preview`)",
                                                 .summary = "Delete a file (or an empty folder)",
                                             });
    return spec;
}
}  // namespace tools
