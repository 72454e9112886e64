// run_change: lane -> load -> plan -> diff -> a transaction of one file, which carries it out
// (dry run | gate -> re-check or merge -> atomic write -> check -> record).
#include "tools/pipeline/change.hpp"

#include "os/file_status.hpp"
#include "tools/pipeline/change_report.hpp"
#include "tools/pipeline/new_file.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/pipeline/change_messages.hpp"
#include "os/hash.hpp"
#include "text/diff/elision.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/diff/unified_diff.hpp"

namespace tools {

std::string lane_key(const std::string& real_path) { return lane_key(real_path, os::stat_path(real_path)); }

std::string lane_key(const std::string& real_path, const os::FileStat& st) {
    if (st.kind == os::FileKind::regular && st.links > 1)
        return "inode:" + std::to_string(st.identity.device) + ":" + std::to_string(st.identity.inode);
    return "path:" + real_path;
}

base::Result<void> seen_and_unchanged(const ledger::FileStates& states, const FileSnapshot& before,
                                      const std::string& display, const std::string& why, const std::string& next) {
    if (!before.exists) return {};
    const auto known = states.known_hash(before.file.path.real);
    if (known && *known == before.file.fingerprint()) return {};
    std::size_t lines = 0;
    text::for_each_line(std::string_view(before.file.bytes).substr(before.file.facts.bom_size),
                        [&](const text::LineSpan&) {
                            ++lines;
                            return true;
                        });
    const std::string facts = file_now_facts(lines, os::sha256_hex(before.file.bytes));
    if (!known)
        return base::fail(base::Failure{not_read_message(display, why, facts, next), base::ErrorReason::not_read});
    return base::fail(base::Failure{changed_since_read_message(display, why, facts, next), base::ErrorReason::stale});
}

namespace {

// One file planned: as it was, what it becomes, and the diff between.
struct PlannedChange {
    FileSnapshot before;
    Plan plan;
    text::UnifiedDiff diff;
    bool unchanged = false;
};

// `st`: the file's stat, taken once the lane was held. `recheck`: time passed since `path` was
// resolved (the lane was busy), so the path goes through the workspace boundary again.
base::Result<PlannedChange> plan_change(const CallContext& ctx, const ChangeRequest& request,
                                        const os::ResolvedPath& path, const os::FileStat& st, bool recheck,
                                        bool keep_open) {
    PlannedChange out;
    out.before.exists = st.kind != os::FileKind::missing;
    out.before.file.path = path;
    if (out.before.exists) {
        if (auto loaded = recheck ? load_text_file(ctx, path.real, out.before.file)
                                  : load_resolved_file(ctx, path.real, out.before.file, keep_open);
            !loaded)
            return base::fail(std::move(loaded).error());
        out.before.file.path = path;
    } else if (!request.may_create) {
        return base::fail(
            base::Failure{change_target_missing_message(request.file_path, path.real), base::ErrorReason::not_found});
    }
    // A file in another encoding is planned on its text (the model's UTF-8), then encoded back.
    const LoadedFile& file = out.before.file;
    std::optional<FileSnapshot> as_text;
    if (out.before.exists && file.encoding.transcoded && request.plans_on_text)
        as_text.emplace(FileSnapshot{true, file.as_planned()});
    base::Result<Plan> plan = request.planner(as_text ? *as_text : out.before, path.display);
    if (!plan) return base::fail(std::move(plan).error());
    out.plan = std::move(plan).value();
    text::DiffOptions options;
    options.old_path = path.display;
    options.old_missing = !out.before.exists;
    options.new_missing = out.plan.delete_file;
    if (!out.before.exists && request.plans_on_text && !out.plan.delete_file) {
        // A new file: written as the project says new files are (.editorconfig, .gitattributes).
        auto shaped = shape_new_file(path, std::move(out.plan.new_bytes).take_joined({}));
        if (!shaped) return base::fail(std::move(shaped).error());
        for (auto& note : shaped->notes) out.plan.notes.push_back(std::move(note));
        out.diff = text::unified_diff({}, shaped->text, options);
        out.plan.new_bytes = std::move(shaped->bytes);
        const std::size_t size = out.plan.new_bytes.size({});
        if (size > ctx.settings.limits.max_file_size)
            return base::fail(base::Failure{result_too_large_message(size, ctx.settings.limits.max_file_size),
                                            base::ErrorReason::too_large});
        return out;
    }
    if (as_text) {
        const std::string& old_text = as_text->file.bytes;
        out.diff = out.plan.new_bytes.diff_from(old_text, options);
        if (!out.plan.delete_file) {
            auto bytes = file.encoding.bytes_of(std::move(out.plan.new_bytes).take_joined(old_text), path.display);
            if (!bytes) return base::fail(std::move(bytes).error());
            out.plan.new_bytes = std::move(*bytes);
        }
    }
    const std::string_view old = file.bytes;
    const std::size_t new_size = out.plan.new_bytes.size(old);
    if (new_size > ctx.settings.limits.max_file_size)
        return base::fail(base::Failure{result_too_large_message(new_size, ctx.settings.limits.max_file_size),
                                        base::ErrorReason::too_large});
    out.unchanged = out.before.exists && !out.plan.delete_file && out.plan.new_bytes.same_as(old);
    if (as_text) return out;
    // Bytes planned as they are on disk (undo) are shown as text too when the file is transcoded.
    if (out.before.exists && file.encoding.transcoded) {
        std::string scratch;
        const auto new_text = out.plan.delete_file ? std::optional<std::string>(std::string())
                                                   : file.encoding.text_of(out.plan.new_bytes.joined(old, scratch));
        if (new_text) {
            out.diff = text::unified_diff(file.text, *new_text, options);
            return out;
        }
    }
    out.diff = out.plan.new_bytes.diff_from(old, options);
    return out;
}

// The report of the change to the file at `path` (`existed`: before the change); takes the diff
// text, notes and extra fields out of `planned`.
ToolResult report(const ChangeRequest& request, const os::ResolvedPath& path, bool existed, PlannedChange& planned,
                  const ApprovalDecision* decision = nullptr, std::vector<checks::CheckOutcome> checks = {}) {
    const bool created = !existed;
    ChangeReport out;
    out.dry_run = request.dry_run;
    out.decision = decision;
    if (planned.unchanged) {
        out.summary = no_change_summary(path.display);
        // Places were found and replaced, but the bytes came out as they were: say why.
        if (planned.plan.replacements > 0) {
            out.summary += request.tool == "multiedit"
                               ? edits_cancel_out_note()
                               : already_there_note(planned.plan.replacements,
                                                    planned.plan.match ? tier_name(planned.plan.match) : std::string());
        }
    } else {
        const char* verb = planned.plan.delete_file ? "Removed " : created ? "Created " : "Changed ";
        if (!planned.plan.undoes.empty())
            out.summary = std::string(request.dry_run ? "Dry run (nothing written): would undo " : "Undid ") +
                          "the latest " + planned.plan.undoes + " of " + path.display + " by this server";
        else if (request.dry_run)
            out.summary = std::string("Dry run (nothing written): would ") +
                          (planned.plan.delete_file ? "remove "
                           : created                ? "create "
                                                    : "change ") +
                          path.display;
        else
            out.summary = verb + path.display;
        out.summary += " (+" + std::to_string(planned.diff.additions) + " -" + std::to_string(planned.diff.removals);
        if (planned.plan.replacements && !created)
            out.summary += ", " + count_of(planned.plan.replacements, "replacement");
        if (planned.plan.match) out.summary += ", match: " + tier_name(planned.plan.match);
        if (planned.diff.first_changed_line)
            out.summary += ", first change at line " + std::to_string(planned.diff.first_changed_line);
        out.summary += ").";
    }
    out.notes = std::move(planned.plan.notes);
    out.files.push_back({path.real, std::move(planned.diff), created && !planned.unchanged, false, std::nullopt});
    // Nothing replaced when nothing changed (the places found gave back the same bytes).
    out.fields = {{"replacements", planned.unchanged ? 0 : planned.plan.replacements},
                  {"match", tier_name(planned.plan.match)}};
    for (auto& [key, value] : planned.plan.extra.items()) out.fields[key] = std::move(value);
    out.checks = std::move(checks);
    return to_tool_result(std::move(out));
}

}  // namespace

asio::awaitable<ToolResult> run_change(CallContext& ctx, ChangeRequest request) {
    auto resolved = ctx.workspace.resolve(request.file_path);
    if (!resolved) co_return ToolResult::error(resolved.error().message, resolved.error().reason);
    const os::ResolvedPath path = std::move(resolved).value();
    if (auto refused = request.refuse_ignored ? request.refuse_ignored(path) : refuse_ignored(ctx, path, true);
        !refused)
        co_return ToolResult::error(std::move(refused).error());

    // One stat serves the lane key, the choice of thread and whether the file exists; it is taken
    // again whenever the lane was busy, since the file may have changed meanwhile.
    os::FileStat st = os::stat_path(path.real);
    ledger::FileLanes::Guard lane = co_await ctx.lanes.acquire(lane_key(path.real, st));
    bool waited = false;
    // A file can gain or lose hard links while we waited: follow its key, a bounded number of times.
    for (int hop = 0; lane.waited(); ++hop) {
        waited = true;
        st = os::stat_path(path.real);
        if (hop == 8) break;
        std::string key = lane_key(path.real, st);
        if (key == lane.key()) break;
        lane.release();
        lane = co_await ctx.lanes.acquire(std::move(key));
    }
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);

    const bool alone = ctx.scope.alone();
    const bool keep_open = WorkPlacement::keep_open(alone, request.dry_run);
    const auto plan = [&ctx, &request, &path, &st, waited, keep_open] {
        return plan_change(ctx, request, path, st, waited, keep_open);
    };
    base::Result<PlannedChange> outcome =
        co_await WorkPlacement::run(ctx, alone && WorkPlacement::small(st.size), plan);
    if (!outcome) co_return ToolResult::error(std::move(outcome).error());
    PlannedChange& planned = outcome.value();
    const bool existed = planned.before.exists;
    ChangeSteps steps;
    steps.shown.add(path.display, planned.diff, existed ? text::count_lines(planned.before.file.shown()) : 0,
                    planned.before.file.written_encoding());
    steps.refuse_elisions = request.refuse_elisions;
    steps.dry_run = request.dry_run || planned.unchanged;
    steps.merge_when_stale = request.merge_when_stale;
    steps.record_history = request.record_history;
    steps.after_commit = std::move(request.after_write);
    std::vector<ledger::FileLanes::Guard> lanes;
    lanes.push_back(std::move(lane));
    Transaction change(request.tool, std::move(lanes));
    change.changes().push_back({std::move(planned.before),
                                std::move(planned.plan.new_bytes),
                                planned.plan.delete_file,
                                false,
                                std::move(planned.plan.like),
                                {}});
    co_return co_await change.carry_out(
        ctx, std::move(steps), [&request, &path, existed, &planned](CarriedOutChange done) {
            if (done.merged) planned.diff = std::move(*done.merged);
            for (auto& note : done.notes) planned.plan.notes.push_back(std::move(note));
            return report(request, path, existed, planned, done.decision, std::move(done.checks));
        });
}

}  // namespace tools
