// The `move` tool: a file moved or renamed (into a folder, or over a file when asked) through the
// same transaction as every change; the moved file keeps its bytes and mode.
#include <cstdio>

#include "ledger/session_patch.hpp"
#include "os/paths.hpp"
#include "os/file_status.hpp"
#include "os/system_paths.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/whole_file_change.hpp"
#include "tools/handlers/whole_file_messages.hpp"

namespace tools {

struct MoveArgs {
    std::string from;
    std::string to;
    bool overwrite = false;  // replace a file that exists at `to`
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MoveArgs, from, to, overwrite, dry_run)

namespace {

// The tool's own structured fields (built outside the coroutine: GCC 12 rejects a braced JSON
// list of string literals inside one).
Json move_fields(const std::string& from, bool overwritten) {
    return {{"moved_from", from}, {"overwritten", overwritten}};
}

// The diff of moving `source` to `destination` (its snapshot: absent, or the file it replaces):
// a git rename when nothing is replaced; otherwise the replaced file's change and the deletion.
text::UnifiedDiff move_diff(const FileSnapshot& source, const FileSnapshot& destination) {
    text::UnifiedDiff out;
    if (!destination.exists) {
        out.text = ledger::rename_header(source.file.path.display, destination.file.path.display);
        return out;
    }
    text::DiffOptions options;
    options.old_path = destination.file.path.display;
    options.max_bytes = 32 * 1024;
    out = text::unified_diff(destination.file.bytes, source.file.bytes, options);
    append_diff(out, deletion_diff(source, 32 * 1024));
    out.first_changed_line = 0;
    return out;
}

std::string mode_note(const FileSnapshot& source) {
    char octal[16];
    std::snprintf(octal, sizeof octal, "%03o", static_cast<unsigned>(source.file.stat.mode & 07777));
    return mode_kept_note(octal);
}

}  // namespace

asio::awaitable<ToolResult> run_move(CallContext& ctx, MoveArgs args) {
    auto source_path = resolve_existing(ctx, args.from, "move", "from");
    if (!source_path) co_return ToolResult::error(std::move(source_path).error());
    const os::ResolvedPath source = std::move(source_path).value();

    auto resolved = ctx.workspace.resolve(args.to);
    if (!resolved) co_return ToolResult::error(resolved.error().message, resolved.error().reason);
    const std::string to_spelled = resolved->spelled;  // `to` itself, as the workspace reads its spelling
    if (os::stat_path(resolved->real).kind == os::FileKind::directory) {
        // `to` is a folder: the file goes into it, under its own name.
        const std::string into = resolved->real + "/" + std::string(os::name_of(source.real));
        resolved = ctx.workspace.resolve(into);
        if (!resolved) co_return ToolResult::error(resolved.error().message, resolved.error().reason);
    }
    const os::ResolvedPath destination = std::move(resolved).value();
    if (auto refused = refuse_ignored(ctx, destination, true); !refused)
        co_return ToolResult::error(std::move(refused).error());
    if (os::same_path(source.real, destination.real))
        co_return ToolResult::error(same_file_move_message(source.display), base::ErrorReason::invalid_arguments);
    if (os::is_symlink(destination.real) || os::is_symlink(to_spelled))
        co_return ToolResult::error(link_destination_message(args.to), base::ErrorReason::not_a_file);

    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, source.real, destination.real);
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);

    auto loaded = load_as_bytes(ctx, source);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot before = std::move(loaded).value();
    FileSnapshot replaced = absent_snapshot(destination);
    const os::FileStat there = os::stat_path(destination.real);
    if (there.kind != os::FileKind::missing) {
        if (there.kind != os::FileKind::regular)
            co_return ToolResult::error(destination_not_regular_message(destination.display, os::describe(there.kind)),
                                        base::ErrorReason::exists);
        if (!args.overwrite)
            co_return ToolResult::error(destination_exists_message(destination.display, there.size),
                                        base::ErrorReason::exists);
        auto target = load_as_bytes(ctx, destination);
        if (!target) co_return ToolResult::error(std::move(target).error());
        replaced = std::move(target).value();
        if (auto seen = seen_before_loss(ctx, replaced, destination.display, overwrite_loses_content_reason(),
                                         call_again_next("move"));
            !seen)
            co_return ToolResult::error(std::move(seen).error());
    }

    WholeFileOutcome outcome;
    outcome.file_path = destination.real;
    outcome.diff = move_diff(before, replaced);
    const bool overwrite = replaced.exists;
    outcome.summary = move_summary(args.dry_run, source.display, destination.display, overwrite, outcome.diff.additions,
                                   outcome.diff.removals);
    outcome.notes.push_back(mode_note(before));
    outcome.fields = move_fields(source.real, overwrite);

    Transaction change("move", std::move(lanes));
    // The new file first, then the old one's removal: a failure in between puts everything back.
    // The moved file keeps its mode and owner, also over a file that was there (issue 39: the
    // replaced file's 0644 used to win over a moved 0600 while the result said 600 was kept).
    const std::optional<os::FileStat> like = before.file.stat;
    std::string bytes = before.file.bytes;
    change.changes().push_back({std::move(replaced), std::move(bytes), false, false, like, source.real});
    change.changes().push_back({std::move(before), "", true, false, std::nullopt, destination.real});
    co_return co_await carry_out_whole_file(ctx, change, std::move(outcome), source.display, destination.display,
                                            args.dry_run, true);
}

const ToolSpec& move_tool() {
    static const ToolSpec spec = define_tool("move", &run_move,
                                             {
                                                 .kind = ToolKind::change,
                                                 .safety_arguments = "`dry_run` (or `preview`), `overwrite: false`",
                                                 .summary = "Move or rename a file",
                                             });
    return spec;
}
}  // namespace tools
