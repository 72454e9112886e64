// What the `move` and `delete` tools (and undo of a move) share: resolving and loading the whole
// file, the check before its content is lost, the diffs and the one_file report.
#include "tools/handlers/whole_file_change.hpp"

#include "os/encoding.hpp"
#include "os/file_status.hpp"
#include "tools/pipeline/change.hpp"
#include "tools/pipeline/change_report.hpp"
#include "tools/handlers/whole_file_messages.hpp"

namespace tools {

// The lanes of these paths, each once, taken in sorted order (no deadlock with another multi-file change).
asio::awaitable<std::vector<ledger::FileLanes::Guard>> take_lanes(CallContext& ctx, std::string first,
                                                                  std::string second) {
    std::vector<std::string> keys;
    keys.push_back(lane_key(first));
    if (!second.empty()) keys.push_back(lane_key(second));
    co_return co_await ctx.lanes.acquire_all(std::move(keys));
}

namespace {

base::Unexpected<base::Failure> refused_file(std::string message, base::ErrorReason reason) {
    return base::fail(base::Failure{std::move(message), reason});
}

}  // namespace

// A file named for a move or a deletion, through the boundary: inside the roots, not ignored, not
// a symlink, a regular file (folders are told what works). `role` names it in messages ("from").
base::Result<os::ResolvedPath> resolve_existing(const CallContext& ctx, const std::string& path,
                                                const std::string& tool, const std::string& role) {
    auto resolved = ctx.workspace.resolve(path);
    if (!resolved) return refused_file(std::move(resolved.error().message), resolved.error().reason);
    const os::ResolvedPath& out = *resolved;
    if (auto refused = refuse_ignored(ctx, out, true); !refused) return base::fail(std::move(refused).error());
    // The link itself, as the path spells it (`~/`, a root's name or relative: the workspace's one
    // reading of every spelling), not where it leads.
    if (os::is_symlink(out.spelled))
        return refused_file(symlink_refused_message(path, out.display, tool, role), base::ErrorReason::not_a_file);
    const os::FileStat st = os::stat_path(out.real);
    if (st.kind == os::FileKind::missing)
        return refused_file(nothing_to_message(tool, path, out.real), base::ErrorReason::not_found);
    if (st.kind == os::FileKind::directory && tool == "move")
        return refused_file(folder_not_moved_message(path), base::ErrorReason::not_a_file);
    if (st.kind != os::FileKind::regular && st.kind != os::FileKind::directory)
        return refused_file(not_regular_for_tool_message(path, os::describe(st.kind), tool),
                            base::ErrorReason::not_a_file);
    return out;
}

FileSnapshot absent_snapshot(const os::ResolvedPath& path) {
    FileSnapshot out;
    out.file.path = path;
    return out;
}

base::Result<FileSnapshot> load_as_bytes(const CallContext& ctx, const os::ResolvedPath& path) {
    FileSnapshot out;
    out.exists = true;
    out.file.path = path;
    // Any bytes: a move or a deletion carries a binary or UTF-16 file as it is.
    if (auto loaded = load_resolved_file(ctx, path.display, out.file, false, false); !loaded)
        return base::fail(std::move(loaded).error());
    out.file.path = path;
    return out;
}

// Whether read shows `file` as text (it refuses binary and UTF-32 files, and UTF-16 ones whose
// bytes after the BOM are not UTF-16).
bool readable_text(const LoadedFile& file) {
    if (file.facts.binary) return false;
    switch (file.facts.bom) {
        case text::Bom::none:
        case text::Bom::utf8: return true;
        case text::Bom::utf16le:
        case text::Bom::utf16be: return os::decide_encoding(file.bytes).lossless;
        case text::Bom::utf32le:
        case text::Bom::utf32be: break;
    }
    return false;
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

text::UnifiedDiff deletion_diff(const FileSnapshot& gone, std::size_t max_bytes) {
    text::DiffOptions options;
    options.old_path = gone.file.path.display;
    options.new_missing = true;
    options.max_bytes = max_bytes;
    // A file in another encoding (GBK, UTF-16 ...) is shown as its text, as read shows it.
    os::EncodingDecision decision;  // one decision: readable_text would make it again for UTF-16
    if (!gone.file.facts.binary) decision = os::decide_encoding(gone.file.bytes);
    const bool as_text = decision.lossless && decision.encoding != "utf-8";
    return text::unified_diff(as_text ? std::string_view(decision.text) : std::string_view(gone.file.bytes),
                              std::string_view(), options);
}

// Two diffs shown as one (a move over a file: the replaced file's change, then the source's deletion).
void append_diff(text::UnifiedDiff& into, text::UnifiedDiff more) {
    if (!into.text.empty() && !more.text.empty() && into.text.back() != '\n') into.text += '\n';
    into.text += more.text;
    into.additions += more.additions;
    into.removals += more.removals;
    into.hunks += more.hunks;
    into.truncated = into.truncated || more.truncated;
}

ToolResult report_whole_file(WholeFileOutcome outcome, bool dry_run, const ApprovalDecision* decision,
                             std::vector<checks::CheckOutcome> checks) {
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
asio::awaitable<ToolResult> carry_out_whole_file(CallContext& ctx, Transaction& change, WholeFileOutcome outcome,
                                                 std::string first_path, std::string second_path, bool dry_run,
                                                 bool record_history, std::function<void()> after_commit) {
    ChangeSteps steps;
    steps.shown.add(std::move(first_path), outcome.diff);
    if (!second_path.empty()) steps.shown.paths.push_back(std::move(second_path));
    steps.dry_run = dry_run;
    steps.record_history = record_history;
    steps.after_commit = std::move(after_commit);
    co_return co_await change.carry_out(ctx, std::move(steps), [&outcome, dry_run](CarriedOutChange done) {
        for (auto& note : done.notes) outcome.notes.push_back(std::move(note));
        return report_whole_file(std::move(outcome), dry_run, done.decision, std::move(done.checks));
    });
}

}  // namespace tools
