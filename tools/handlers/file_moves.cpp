// Undo of a move (file_moves.hpp): the two sides of a move found in the history, and the file
// moved back whole through the transaction when neither side changed since.
#include "tools/handlers/file_moves.hpp"

#include "ledger/history_journal.hpp"
#include "ledger/session_patch.hpp"
#include "os/file_status.hpp"
#include "tools/handlers/whole_file_change.hpp"
#include "tools/handlers/whole_file_messages.hpp"

namespace tools {

namespace {

// Undo's structured fields (built outside the coroutine: GCC 12 rejects a braced JSON list of
// string literals inside one).
Json undo_fields(const std::string& tool) { return {{"undone_tool", tool}, {"deleted", false}}; }
}  // namespace

std::optional<std::pair<std::string, std::string>> move_of(const ledger::History& history,
                                                           const std::string& real_path) {
    const auto entry = history.latest(real_path);
    if (!entry || entry->partner.empty()) return std::nullopt;
    const auto other = history.latest(entry->partner);
    if (!other || other->partner != real_path) return std::nullopt;
    // The destination is the side whose change wrote a file.
    if (entry->after_fingerprint) return std::make_pair(entry->partner, real_path);
    return std::make_pair(real_path, entry->partner);
}

std::string move_not_undoable(const CallContext& ctx, const os::ResolvedPath& path,
                              const ledger::History::Entry& latest) {
    return move_not_undoable_message(path.display, ctx.workspace.display_path(latest.partner),
                                     latest.after_fingerprint.has_value());
}

asio::awaitable<ToolResult> undo_move(CallContext& ctx, const std::string& from_real, const std::string& to_real,
                                      bool dry_run) {
    ledger::History& history = *ctx.history;
    const os::ResolvedPath from{from_real, ctx.workspace.display_path(from_real), false, from_real};
    const os::ResolvedPath to{to_real, ctx.workspace.display_path(to_real), true, to_real};
    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, from_real, to_real);
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);
    const auto moved_in = history.latest(to_real);
    const auto moved_out = history.latest(from_real);
    if (!moved_in || !moved_out || moved_in->partner != from_real || moved_out->partner != to_real)
        co_return ToolResult::error(move_already_undone_message(from.display, to.display),
                                    base::ErrorReason::nothing_to_undo);
    if (os::stat_path(from_real).kind != os::FileKind::missing)
        co_return ToolResult::error(source_taken_again_message(from.display, to.display), base::ErrorReason::conflict);
    if (os::stat_path(to_real).kind == os::FileKind::missing)
        co_return ToolResult::error(moved_file_gone_message(from.display, to.display), base::ErrorReason::conflict);
    auto loaded = load_as_bytes(ctx, to);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot current = std::move(loaded).value();
    if (!moved_in->after_fingerprint || current.file.fingerprint() != *moved_in->after_fingerprint)
        co_return ToolResult::error(moved_file_changed_message(from.display, to.display), base::ErrorReason::conflict);

    WholeFileOutcome outcome;
    outcome.file_path = from_real;
    FileSnapshot restored = absent_snapshot(from);
    // The moved file's bytes before the move (apply_diff may have changed them as it moved them).
    std::string bytes = moved_out->before;
    const bool unchanged = bytes == current.file.bytes;
    std::optional<std::string> replaced_bytes;  // the file the move replaced at `to`, put back
    if (moved_in->existed)
        replaced_bytes = moved_in->after_kept ? moved_in->before : moved_in->before_from(current.file.bytes);
    if (replaced_bytes || !unchanged) {
        text::DiffOptions options;
        options.old_path = to.display;
        options.new_missing = !replaced_bytes;
        outcome.diff =
            text::unified_diff(current.file.bytes, replaced_bytes ? *replaced_bytes : std::string(), options);
        text::DiffOptions created;
        created.old_path = from.display;
        created.old_missing = true;
        append_diff(outcome.diff, text::unified_diff({}, bytes, created));
    } else {
        outcome.diff.text = ledger::rename_header(to.display, from.display);
    }
    outcome.summary = undo_move_summary(dry_run, moved_in->tool, from.display, to.display, replaced_bytes.has_value());
    outcome.fields = undo_fields(moved_in->tool);

    Transaction change("undo", std::move(lanes));
    std::optional<os::FileStat> like = current.file.stat;
    if (moved_out->mode) like->mode = moved_out->mode;
    change.changes().push_back({std::move(restored), std::move(bytes), false, false, like, {}});
    if (replaced_bytes) {
        std::string old = std::move(*replaced_bytes);
        change.changes().push_back({std::move(current), std::move(old), false});
    } else {
        change.changes().push_back({std::move(current), "", true});
    }
    const auto popped = [&history, journal = ctx.journal, in = moved_in->seq, out = moved_out->seq, from_real,
                         to_real] {
        history.pop(to_real, in);
        history.pop(from_real, out);
        if (journal) {
            journal->popped(to_real);
            journal->popped(from_real);
        }
    };
    co_return co_await carry_out_whole_file(ctx, change, std::move(outcome), to.display, from.display, dry_run, false,
                                            popped);
}
}  // namespace tools
