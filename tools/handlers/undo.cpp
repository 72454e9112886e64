// The `undo` tool: revert the latest change this server made to a file, if the file is still
// exactly what the server wrote; repeated calls walk further back; a created file is removed; a
// rule that ignores the file since does not stop it (--ignore-reads does).
#include "tools/pipeline/change.hpp"
#include "tools/pipeline/file_access.hpp"
#include "tools/handlers/file_moves.hpp"
#include "ledger/history_journal.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/undo_messages.hpp"
#include "text/diff/unified_diff.hpp"

namespace tools {

struct UndoArgs {
    std::string file_path;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(UndoArgs, file_path, dry_run)

namespace {

// Tells the model how far back undo can still go once this step is done.
void add_remaining_note(Plan& plan, std::size_t depth) {
    const std::size_t left = depth > 0 ? depth - 1 : 0;
    plan.notes.push_back(remaining_undo_note(left));
}

}  // namespace

asio::awaitable<ToolResult> run_undo(CallContext& ctx, UndoArgs args) {
    // The latest change was a move: both of its files go back together.
    if (ctx.history) {
        if (auto resolved = ctx.workspace.resolve(args.file_path)) {
            const os::ResolvedPath& path = *resolved;
            if (auto move = move_of(*ctx.history, path.real)) {
                if (auto refused = refuse_ignored(ctx, path, true); !refused)
                    co_return ToolResult::error(std::move(refused).error());
                co_return co_await undo_move(ctx, move->first, move->second, args.dry_run);
            } else if (auto latest = ctx.history->latest(path.real); latest && !latest->partner.empty()) {
                co_return ToolResult::error(move_not_undoable(ctx, path, *latest), base::ErrorReason::conflict);
            }
        }
    }
    ChangeRequest request("undo", std::move(args.file_path), args.dry_run);
    request.may_create = true;  // undoing a deletion would recreate; a missing file is judged below
    request.record_history = false;
    request.merge_when_stale = false;
    request.plans_on_text = false;  // it puts back the bytes that were on disk
    ledger::History* history = ctx.history;
    // An ignore rule does not keep undo from restoring this server's own change (it wrote the file;
    // a rule added since would otherwise strand it), unless --ignore-reads hides the file's content,
    // which the result's diff would show. A .git folder and the ignore files stay refused, and so
    // does a file this server has no change of.
    request.refuse_ignored = [&ctx, history](const os::ResolvedPath& path) -> base::Result<void> {
        auto as_write = refuse_ignored(ctx, path, true);
        if (as_write || !history || !history->latest(path.real) || !ctx.ignore) return as_write;
        const std::string* root = ctx.workspace.root_of(path.real);
        const auto refusal = root ? ctx.ignore->refuse_write(*root, path.real) : std::nullopt;
        if (!refusal || refusal->kind != os::IgnoreRefusal::Kind::rule) return as_write;
        return refuse_ignored(ctx, path, false);
    };
    struct Undone {
        std::uint64_t seq = 0;
        std::string real_path;
    };
    auto undone = std::make_shared<Undone>();
    request.planner = [history, undone](const FileSnapshot& current, const std::string& display) -> base::Result<Plan> {
        const std::string& real = current.file.path.real;
        const auto entry = history ? history->latest(real) : nullptr;
        if (!entry) {
            const std::size_t evicted = history ? history->evicted(real) : 0;
            if (evicted)
                return plan_error(history_evicted_message(display, evicted), base::ErrorReason::nothing_to_undo);
            return plan_error(nothing_to_undo_message(display), base::ErrorReason::nothing_to_undo);
        }
        const bool was_deleted = !entry->after_fingerprint;
        if (was_deleted && current.exists)
            return plan_error(deleted_file_back_message(display, entry->tool), base::ErrorReason::conflict);
        if (was_deleted) {
            Plan plan;
            plan.replacements = 1;
            plan.new_bytes = entry->before;
            plan.undoes = entry->tool;
            plan.extra["undone_tool"] = entry->tool;
            plan.extra["deleted"] = false;
            plan.notes.push_back("the file was deleted by " + entry->tool + ", so undo recreates it");
            if (entry->mode) {  // with the permission bits it had
                plan.like.emplace();
                plan.like->kind = os::FileKind::regular;
                plan.like->mode = entry->mode;
            }
            add_remaining_note(plan, history->depth(real));
            undone->seq = entry->seq;
            undone->real_path = real;
            return plan;
        }
        if (!current.exists)
            return plan_error(written_file_gone_message(display, entry->tool), base::ErrorReason::conflict);
        if (current.file.fingerprint() != *entry->after_fingerprint) {
            const std::string cannot = changed_since_written_message(display, entry->tool);
            if (!entry->after_kept)  // a big file: the history keeps only the replaced bytes, not what was written
                return plan_error(cannot + written_bytes_not_kept_note(ledger::History::max_kept_after >> 20),
                                  base::ErrorReason::conflict);
            text::DiffOptions options;
            options.old_path = display;
            const auto drift = text::unified_diff(entry->after, current.file.bytes, options);
            return plan_error(cannot + drift_note(drift.text), base::ErrorReason::conflict);
        }
        Plan plan;
        plan.replacements = 1;
        plan.undoes = entry->tool;
        plan.extra["undone_tool"] = entry->tool;
        if (!entry->existed) {
            plan.delete_file = true;
            plan.extra["deleted"] = true;
            plan.notes.push_back("the file was created by " + entry->tool + ", so undo removes it");
        } else {
            // The file is what the server wrote (same fingerprint): the delta applies to it.
            plan.new_bytes = entry->after_kept ? entry->before : entry->before_from(current.file.bytes);
            plan.extra["deleted"] = false;
        }
        add_remaining_note(plan, history->depth(real));
        undone->seq = entry->seq;
        undone->real_path = real;
        return plan;
    };
    request.after_write = [history, undone, journal = ctx.journal] {
        if (history && undone->seq) history->pop(undone->real_path, undone->seq);
        if (journal && undone->seq) journal->popped(undone->real_path);
    };
    co_return co_await run_change(ctx, std::move(request));
}

const ToolSpec& undo_tool() {
    static const ToolSpec spec = define_tool("undo", &run_undo,
                                             {
                                                 .kind = ToolKind::change,
                                                 .safety_arguments = "`dry_run` (or `preview`)",
                                                 .summary = "Undo this session's last change to a file",
                                             });
    return spec;
}

}  // namespace tools
