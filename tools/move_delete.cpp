// The `move` and `delete` tools, and undo of a move: a file moved or deleted through the same
// transaction as every change (lanes in sorted order, one approval over a git diff, atomic commit).
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "os/hash.hpp"
#include "os/file_status.hpp"
#include "os/file_writes.hpp"
#include "os/system_paths.hpp"
#include "os/paths.hpp"
#include "text/unified_diff.hpp"
#include "tools/change.hpp"
#include "tools/change_report.hpp"
#include "tools/file_access.hpp"
#include "tools/file_moves.hpp"
#include "ledger/history_journal.hpp"
#include "tools/catalog.hpp"
#include "ledger/session_patch.hpp"
#include "tools/transaction.hpp"

namespace tools {

struct MoveArgs {
    std::string from;
    std::string to;
    bool overwrite = false;  // replace a file that exists at `to`
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MoveArgs, from, to, overwrite, dry_run)

struct DeleteArgs {
    std::string file_path;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeleteArgs, file_path, dry_run)

namespace {

// The lanes of these paths, each once, taken in sorted order (no deadlock with another multi-file change).
asio::awaitable<std::vector<ledger::FileLanes::Guard>> take_lanes(CallContext& ctx, std::string first,
                                                                  std::string second = {}) {
    std::vector<std::string> keys;
    keys.push_back(lane_key(first));
    if (!second.empty()) keys.push_back(lane_key(second));
    co_return co_await ctx.lanes.acquire_all(std::move(keys));
}

// One of two texts (GCC 12 cannot compile `cond ? "literal" : "other literal"` in a coroutine).
std::string either(bool first, std::string_view a, std::string_view b) { return std::string(first ? a : b); }

// The tools' own structured fields (built outside the coroutines: GCC 12 rejects a braced JSON
// list of string literals inside one).
Json deletion_fields(bool folder) { return {{"deleted", true}, {"folder", folder}}; }
Json move_fields(const std::string& from, bool overwritten) {
    return {{"moved_from", from}, {"overwritten", overwritten}};
}
Json undo_fields(const std::string& tool) { return {{"undone_tool", tool}, {"deleted", false}}; }

base::Unexpected<base::Failure> refusal(std::string message, base::ErrorReason reason) {
    return base::fail(base::Failure{std::move(message), reason});
}

// A file named for a move or a deletion, through the boundary: inside the roots, not ignored, not
// a symlink, a regular file (folders are told what works). `role` names it in messages ("from").
base::Result<os::ResolvedPath> resolve_existing(const CallContext& ctx, const std::string& path,
                                                const std::string& tool, const std::string& role) {
    auto resolved = ctx.workspace.resolve(path);
    if (!resolved) return refusal(std::move(resolved.error().message), resolved.error().reason);
    const os::ResolvedPath& out = *resolved;
    if (auto refused = refuse_ignored(ctx, out, true); !refused) return base::fail(std::move(refused).error());
    // The link itself, as the path spells it (`~/`, a root's name or relative: the workspace's one
    // reading of every spelling), not where it leads.
    if (os::is_symlink(out.spelled))
        return refusal("Refused: " + path + " is a symbolic link (to " + out.display + "). " + tool +
                           " works on regular files, never through a link, so that the link and its target do not "
                           "part ways unseen. Call " +
                           tool + " with " + role + " set to " + out.display + " itself.",
                       base::ErrorReason::not_a_file);
    const os::FileStat st = os::stat_path(out.real);
    if (st.kind == os::FileKind::missing)
        return refusal("Nothing to " + tool + ": " + path + " does not exist (resolved to " + out.real +
                           "). Check the path: list its folder to see what is there.",
                       base::ErrorReason::not_found);
    if (st.kind == os::FileKind::directory && tool == "move")
        return refusal("Refused: " + path +
                           " is a folder. move moves one file at a time (a folder may hold files this "
                           "server must not touch: ignored ones, a .git folder). Move its files one by one; each move "
                           "makes the folders its new path needs.",
                       base::ErrorReason::not_a_file);
    if (st.kind != os::FileKind::regular && st.kind != os::FileKind::directory)
        return refusal("Refused: " + path + " is " + os::describe(st.kind) + ", not a regular file; " + tool +
                           " works on regular files only.",
                       base::ErrorReason::not_a_file);
    return out;
}

FileSnapshot absent(const os::ResolvedPath& path) {
    FileSnapshot out;
    out.file.path = path;
    return out;
}

base::Result<FileSnapshot> load(const CallContext& ctx, const os::ResolvedPath& path) {
    FileSnapshot out;
    out.exists = true;
    out.file.path = path;
    // Any bytes: a move or a deletion carries a binary or UTF-16 file as it is.
    if (auto loaded = load_resolved_file(ctx, path.display, out.file, false, false); !loaded)
        return base::fail(std::move(loaded).error());
    out.file.path = path;
    return out;
}

// Whether read shows `file` as text (it refuses binary and UTF-16/32 files).
bool readable_text(const LoadedFile& file) {
    return !file.facts.binary && (file.facts.bom == text::Bom::none || file.facts.bom == text::Bom::utf8);
}

// A file whose content is lost by the call (deleted, or replaced by a move) must have been read by
// this session and be unchanged since. A file read cannot show as text (binary, UTF-16/32; an image
// it shows and records) needs no read when the session has not seen it: the call names its size and
// sha256, and undo puts its bytes back. Once seen, it must be unchanged, as any file.
base::Result<void> seen_before_loss(const CallContext& ctx, const FileSnapshot& file, const std::string& display,
                                    const std::string& why, const std::string& next) {
    if (file.exists && !readable_text(file.file) && !ctx.file_states.known_hash(file.file.path.real)) return {};
    return seen_and_unchanged(ctx.file_states, file, display, why, next);
}

// "a binary file of N bytes, sha256 X" for a file read cannot show; "" for text.
std::string opaque_facts(const FileSnapshot& file) {
    if (readable_text(file.file)) return {};
    return std::string(file.file.facts.binary ? "a binary file" : "a UTF-16/32 file") + " of " +
           std::to_string(file.file.bytes.size()) + " bytes, sha256 " + os::sha256_hex(file.file.bytes);
}

text::UnifiedDiff deletion_diff(const FileSnapshot& gone, std::size_t max_bytes) {
    text::DiffOptions options;
    options.old_path = gone.file.path.display;
    options.new_missing = true;
    options.max_bytes = max_bytes;
    return text::unified_diff(gone.file.bytes, std::string_view(), options);
}

// Two diffs shown as one (a move over a file: the replaced file's change, then the source's deletion).
void append(text::UnifiedDiff& into, text::UnifiedDiff more) {
    if (!into.text.empty() && !more.text.empty() && into.text.back() != '\n') into.text += '\n';
    into.text += more.text;
    into.additions += more.additions;
    into.removals += more.removals;
    into.hunks += more.hunks;
    into.truncated = into.truncated || more.truncated;
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
    append(out, deletion_diff(source, 32 * 1024));
    out.first_changed_line = 0;
    return out;
}

// What a move or deletion reports (one_file shape; move.json and delete.json describe it).
struct MoveOutcome {
    std::string summary;
    std::string file_path;  // real path: the destination of a move, the deleted file
    text::UnifiedDiff diff;
    std::vector<std::string> notes;
    Json fields = Json::object();
};

ToolResult report(MoveOutcome outcome, bool dry_run, const ApprovalDecision* decision,
                  std::vector<checks::CheckOutcome> checks = {}) {
    ChangeReport out;
    out.shape = ChangeReport::Shape::one_file;
    out.summary = std::move(outcome.summary);
    out.notes = std::move(outcome.notes);
    out.dry_run = dry_run;
    out.decision = decision;
    out.checks = std::move(checks);
    outcome.diff.first_changed_line = 0;
    out.files.push_back({std::move(outcome.file_path), std::move(outcome.diff), false, false, std::nullopt});
    out.fields = std::move(outcome.fields);
    out.fields["replacements"] = 0;
    out.fields["match"] = "none";
    return to_tool_result(std::move(out));
}

// Carries out `change` (its changes filled in; only shown for a dry run), answering with
// `outcome`. `after_commit` runs once the files are written (undo pops its history there).
asio::awaitable<ToolResult> carry_out(CallContext& ctx, Transaction& change, MoveOutcome outcome,
                                      std::string first_path, std::string second_path, bool dry_run,
                                      bool record_history, std::function<void()> after_commit = {}) {
    Steps steps;
    steps.shown.add(std::move(first_path), outcome.diff);
    if (!second_path.empty()) steps.shown.paths.push_back(std::move(second_path));
    steps.dry_run = dry_run;
    steps.record_history = record_history;
    steps.after_commit = std::move(after_commit);
    co_return co_await change.carry_out(ctx, std::move(steps), [&outcome, dry_run](Done done) {
        for (auto& note : done.notes) outcome.notes.push_back(std::move(note));
        return report(std::move(outcome), dry_run, done.decision, std::move(done.checks));
    });
}

std::string mode_note(const FileSnapshot& source) {
    char octal[16];
    std::snprintf(octal, sizeof octal, "%03o", static_cast<unsigned>(source.file.stat.mode & 07777));
    return std::string("its bytes and mode (") + octal + ") are kept";
}

// An empty folder deleted: asked like a change (no diff: a sentence), removed with rmdir.
asio::awaitable<ToolResult> delete_empty_folder(CallContext& ctx, const os::ResolvedPath& path, bool dry_run) {
    for (const auto& root : ctx.workspace.roots())
        if (os::same_path(root, path.real))
            co_return ToolResult::error("Refused: " + path.display + " is a root of this server; it is never deleted.",
                                        base::ErrorReason::invalid_arguments);
    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, path.real);
    std::error_code looked;
    const bool empty =
        std::filesystem::is_empty(std::filesystem::path(reinterpret_cast<const char8_t*>(path.real.c_str())), looked);
    if (looked)
        co_return ToolResult::error("Cannot look into " + path.display + ": " + looked.message() + ".",
                                    base::ErrorReason::io_error);
    if (!empty)
        co_return ToolResult::error("Refused: " + path.display +
                                        " is a folder that is not empty. delete removes files "
                                        "and empty folders only (a folder may hold files this server must not touch). "
                                        "Delete its files one by one (read each first), then the folder.",
                                    base::ErrorReason::not_a_file);
    MoveOutcome outcome;
    outcome.file_path = path.real;
    outcome.summary =
        either(dry_run, "Dry run (nothing written): would delete the empty folder ", "Deleted the empty folder ") +
        path.display + ".";
    outcome.fields = deletion_fields(true);
    if (dry_run) co_return report(std::move(outcome), true, nullptr);
    Shown shown;
    shown.paths.push_back(path.display + "/");
    shown.diff = "Delete the empty folder " + path.display + "/";
    ApprovalDecision decision = co_await ctx.approve(approval_request("delete", shown));
    if (decision.kind == ApprovalDecision::Kind::awaiting_review)
        co_return report(std::move(outcome), false, &decision);
    if (auto answer = unless_approved(ctx, decision)) co_return std::move(*answer);
    if (auto removed = os::remove_empty_directory(path.real, ctx.fsync); !removed)
        co_return ToolResult::error(
            "Cannot delete the folder " + path.display + ": " + removed.error().message + ". Nothing was deleted.",
            base::ErrorReason::io_error);
    outcome.notes.push_back("undo does not recreate a folder; a file written into its path makes it again");
    co_return report(std::move(outcome), false, &decision);
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
        co_return ToolResult::error(
            "Nothing to move: from and to name the same file (" + source.display + "). Give `to` the new path.",
            base::ErrorReason::invalid_arguments);
    if (os::is_symlink(destination.real) || os::is_symlink(to_spelled))
        co_return ToolResult::error("Refused: " + args.to +
                                        " is a symbolic link; move does not replace a link. Pick "
                                        "another `to`, or delete the link yourself first.",
                                    base::ErrorReason::not_a_file);

    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, source.real, destination.real);
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);

    auto loaded = load(ctx, source);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot before = std::move(loaded).value();
    FileSnapshot replaced = absent(destination);
    const os::FileStat there = os::stat_path(destination.real);
    if (there.kind != os::FileKind::missing) {
        if (there.kind != os::FileKind::regular)
            co_return ToolResult::error("Refused: " + destination.display + " exists and is " +
                                            os::describe(there.kind) +
                                            "; move puts files only where no file is, or over a regular file. Pick "
                                            "another `to`.",
                                        base::ErrorReason::exists);
        if (!args.overwrite)
            co_return ToolResult::error(
                "Refused: " + destination.display + " already exists (" + std::to_string(there.size) +
                    " bytes), and move does not replace a file unless asked. Nothing was moved. "
                    "Pick another `to`, or, to replace it (its content is lost), read " +
                    destination.display + " and call move again with overwrite: true.",
                base::ErrorReason::exists);
        auto target = load(ctx, destination);
        if (!target) co_return ToolResult::error(std::move(target).error());
        replaced = std::move(target).value();
        if (auto seen = seen_before_loss(ctx, replaced, destination.display,
                                         "move with overwrite: true replaces its whole content",
                                         "read " + destination.display + ", then call move again");
            !seen)
            co_return ToolResult::error(std::move(seen).error());
    }

    MoveOutcome outcome;
    outcome.file_path = destination.real;
    outcome.diff = move_diff(before, replaced);
    const bool overwrite = replaced.exists;
    outcome.summary = either(args.dry_run, "Dry run (nothing written): would move ", "Moved ") + source.display +
                      " to " + destination.display +
                      (overwrite ? " (replacing the file that was there, +" + std::to_string(outcome.diff.additions) +
                                       " -" + std::to_string(outcome.diff.removals) + ")."
                                 : " (a rename: no line changed).");
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
    co_return co_await carry_out(ctx, change, std::move(outcome), source.display, destination.display, args.dry_run,
                                 true);
}

asio::awaitable<ToolResult> run_delete(CallContext& ctx, DeleteArgs args) {
    auto resolved = resolve_existing(ctx, args.file_path, "delete", "file_path");
    if (!resolved) co_return ToolResult::error(std::move(resolved).error());
    const os::ResolvedPath path = std::move(resolved).value();
    if (os::stat_path(path.real).kind == os::FileKind::directory)
        co_return co_await delete_empty_folder(ctx, path, args.dry_run);

    std::vector<ledger::FileLanes::Guard> lanes = co_await take_lanes(ctx, path.real);
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);
    auto loaded = load(ctx, path);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot before = std::move(loaded).value();
    if (auto seen = seen_before_loss(ctx, before, path.display, "delete removes the whole file",
                                     "read " + path.display + ", then call delete again");
        !seen)
        co_return ToolResult::error(std::move(seen).error());

    MoveOutcome outcome;
    outcome.file_path = path.real;
    outcome.diff = deletion_diff(before, 64 * 1024);
    const std::string opaque = opaque_facts(before);
    outcome.summary = either(args.dry_run, "Dry run (nothing written): would delete ", "Deleted ") + path.display +
                      (opaque.empty() ? " (-" + std::to_string(outcome.diff.removals) + ")." : " (" + opaque + ").");
    if (!args.dry_run) outcome.notes.push_back("undo with file_path " + path.display + " recreates it byte for byte");
    outcome.fields = deletion_fields(false);

    Transaction change("delete", std::move(lanes));
    change.changes().push_back({std::move(before), "", true});
    co_return co_await carry_out(ctx, change, std::move(outcome), path.display, {}, args.dry_run, true);
}

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
    const std::string other = ctx.workspace.display_path(latest.partner);
    return "Cannot undo: the latest change of " + path.display + " by this server is a move (" +
           (latest.after_fingerprint ? other + " to " + path.display : path.display + " to " + other) + "), and " +
           other +
           " changed since, so undoing one side alone could lose the file or leave two copies. Nothing was changed. "
           "Move "
           "the file back with move (from and to swapped), or undo the later changes of " +
           other + " first.";
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
        co_return ToolResult::error(
            "Nothing to undo: the move of " + from.display + " to " + to.display + " was undone meanwhile.",
            base::ErrorReason::nothing_to_undo);
    const std::string cannot = "Cannot undo the move of " + from.display + " to " + to.display + ": ";
    if (os::stat_path(from_real).kind != os::FileKind::missing)
        co_return ToolResult::error(cannot + "a file exists at " + from.display +
                                        " again, and undo does not replace it. "
                                        "Nothing was changed. Move or delete that file first.",
                                    base::ErrorReason::conflict);
    if (os::stat_path(to_real).kind == os::FileKind::missing)
        co_return ToolResult::error(cannot + to.display + " no longer exists. Nothing was changed.",
                                    base::ErrorReason::conflict);
    auto loaded = load(ctx, to);
    if (!loaded) co_return ToolResult::error(std::move(loaded).error());
    FileSnapshot current = std::move(loaded).value();
    if (!moved_in->after_fingerprint || current.file.fingerprint() != *moved_in->after_fingerprint)
        co_return ToolResult::error(cannot + to.display +
                                        " changed since the move, so moving it back would carry those "
                                        "changes along unseen. Nothing was changed. Undo its later changes first "
                                        "(undo with file_path " +
                                        to.display + "), or move it back with move.",
                                    base::ErrorReason::conflict);

    MoveOutcome outcome;
    outcome.file_path = from_real;
    FileSnapshot restored = absent(from);
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
        append(outcome.diff, text::unified_diff({}, bytes, created));
    } else {
        outcome.diff.text = ledger::rename_header(to.display, from.display);
    }
    outcome.summary = either(dry_run, "Dry run (nothing written): would undo the latest ", "Undid the latest ") +
                      moved_in->tool + " of " + from.display + " by this server, a move: moved " + to.display +
                      " back to " + from.display +
                      either(replaced_bytes.has_value(), ", and put back the file the move had replaced there.", ".");
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
    co_return co_await carry_out(ctx, change, std::move(outcome), to.display, from.display, dry_run, false, popped);
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
