// The `apply_diff` tool: a patch in one of the formats agents write (SEARCH/REPLACE blocks, a
// unified diff, an `*** Begin Patch` envelope), over one or several files, as one transaction:
// every file planned, every lane taken (sorted), one approval, every file staged and verified,
// then renamed; a failure rolls back what was renamed. Nothing is ever half-applied.
#include <algorithm>
#include <deque>
#include <set>

#include <spdlog/spdlog.h>

#include "tools/change.hpp"
#include "os/hash.hpp"
#include "tools/registry.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_plan.hpp"
#include "text/unified_diff.hpp"

namespace tools {

namespace {

// One file of the patch, from its paths to its planned bytes.
struct FileWork {
    const text::FilePatch* patch = nullptr;
    os::ResolvedPath source;
    std::optional<os::ResolvedPath> destination;  // a move
    FileSnapshot before;                               // the source as it is
    FileSnapshot destination_before;                   // the move's target (must be absent)
    text::FilePlan plan;
    text::UnifiedDiff diff;
    std::string new_hash;
    // Other names of this file that had their own section (hard links, symlinks, other spellings),
    // and how they are the same file: their blocks were merged into this one's.
    std::vector<std::string> aliases;
    std::string alias_reason;
    text::FilePatch* own_patch = nullptr;  // the merged section (in the handler's store) when aliases exist
    bool created() const { return patch->action == text::FileAction::create; }
    bool deleted() const { return patch->action == text::FileAction::remove; }
    const os::ResolvedPath& result_path() const { return destination ? *destination : source; }
};

struct Planned {
    std::string error;
    base::ErrorReason reason = base::ErrorReason::other;  // of the first failing file, when it failed
    std::vector<FileWork> files;
    std::size_t blocks = 0;
};

// The reason for a text::BlockFailure kind ("not_found", "ambiguous", ...).
base::ErrorReason reason_of_block_failure(std::string_view kind) {
    if (kind == "not_found") return base::ErrorReason::not_found;
    if (kind == "ambiguous") return base::ErrorReason::ambiguous;
    if (kind == "already_applied") return base::ErrorReason::already_applied;
    if (kind == "overlap") return base::ErrorReason::overlap;
    if (kind == "already_exists") return base::ErrorReason::exists;
    if (kind == "identical" || kind == "bad_line") return base::ErrorReason::invalid_arguments;
    return base::ErrorReason::other;
}

// Roo Code's XML form of a multi-file diff (<args><file><path>…</path><diff>…</diff></file></args>).
bool looks_like_roo_xml(std::string_view diff) {
    return diff.find("<path>") != std::string_view::npos &&
           (diff.find("<args>") != std::string_view::npos || diff.find("<file>") != std::string_view::npos ||
            diff.find("<diff>") != std::string_view::npos);
}

constexpr const char* roo_xml_note =
    "The diff is Roo Code's XML form (<args><file><path>...</path><diff>...</diff></file></args>), which is not a "
    "format apply_diff reads. apply_diff takes as diff: SEARCH/REPLACE blocks (<<<<<<< SEARCH / ======= / "
    ">>>>>>> REPLACE) with file_path set to the file they change; a unified diff (--- a/PATH, +++ b/PATH, @@ "
    "hunks; several files in one diff); or an *** Begin Patch envelope (*** Update File: PATH ... *** End Patch).";

// A file's section that has no block of its own (a deletion, a move, an empty creation) still
// counts as one step of the patch: it is reported as one block.
std::size_t blocks_of(const text::FilePatch& patch) { return std::max<std::size_t>(1, patch.blocks.size()); }

// The index in `files` of the section whose source is the same file as `path` (same real path, or
// same device and inode), or files.size() when none is.
std::size_t same_file(const std::vector<FileWork>& files, const std::vector<platform::FileStat>& identities,
                      const os::ResolvedPath& path, const platform::FileStat& identity) {
    const bool exists = identity.kind != platform::FileKind::missing;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].source.real == path.real) return i;
        if (exists && identities[i].kind != platform::FileKind::missing && identities[i].identity == identity.identity)
            return i;
    }
    return files.size();
}

bool load_snapshot(const CallContext& ctx, const os::ResolvedPath& path, FileSnapshot& out, base::Failure& error) {
    out.file.path = path;
    out.exists = platform::stat_path(path.real).kind != platform::FileKind::missing;
    if (!out.exists) return true;
    if (auto problem = load_text_file(ctx, path.real, out.file)) {
        error = std::move(*problem);
        return false;
    }
    out.file.path = path;
    return true;
}

// What a planned file's change relies on having been seen by the model ("" when nothing): a
// deletion that does not show the content it deletes (one that does was checked against the
// file), or lines placed by a line number alone (a block with no lines of the file to match).
std::string relies_on(const FileWork& work, text::PatchFormat format) {
    if (work.deleted()) return work.patch->blocks.empty() ? "the patch deletes it without showing its content" : "";
    const char* block = format == text::PatchFormat::unified ? "hunk" : format == text::PatchFormat::apply_patch ? "chunk" : "block";
    std::string placed;
    std::size_t count = 0;
    for (const auto& b : work.plan.blocks) {
        if (b.match != text::BlockMatch::inserted || b.stated_line == 0) continue;
        if (++count > 3) continue;  // the first three named
        placed += std::string(placed.empty() ? "" : ", ") + block + " " + std::to_string(b.index) + " after line " +
                  std::to_string(b.stated_line);
    }
    if (!count) return "";
    if (count > 3) placed += " and " + std::to_string(count - 3) + " more";
    return "the patch places lines by line number alone (" + placed + "; no lines of the file to match), which must come from its current content";
}

Planned plan_patch(const CallContext& ctx, std::vector<FileWork> files, double fuzzy_threshold, text::PatchFormat format) {
    Planned out;
    std::string failures;
    // The first failure's reason stands for the patch's.
    auto failed = [&](std::string text, base::ErrorReason reason) {
        if (failures.empty()) out.reason = reason;
        failures += "\n- " + text;
    };
    for (auto& work : files) {
        base::Failure error;
        if (!load_snapshot(ctx, work.source, work.before, error)) {
            failed(work.source.display + ": " + error.message, error.reason);
            continue;
        }
        if (work.destination && !load_snapshot(ctx, *work.destination, work.destination_before, error)) {
            failed(work.destination->display + ": " + error.message, error.reason);
            continue;
        }
        if (work.destination && work.destination_before.exists) {
            failed(work.source.display + " cannot move to " + work.destination->display +
                       ": that file exists already. Delete it first or pick another name.",
                   base::ErrorReason::exists);
            continue;
        }
        const auto action = work.patch->action;
        if (action != text::FileAction::create && !work.before.exists) {
            failed(work.source.display + ": file not found (the patch " +
                       (action == text::FileAction::remove ? "deletes" : "changes") +
                       " it). Check the path; a new file is written as a creation (--- /dev/null, or *** Add File:).",
                   base::ErrorReason::not_found);
            continue;
        }
        text::PlanOptions options;
        options.format = format;
        options.display_path = work.source.display;
        options.fuzzy_threshold = fuzzy_threshold;
        std::optional<std::string_view> original;
        if (work.before.exists) original = std::string_view(work.before.file.bytes);
        auto plan = text::plan_file_patch(original, *work.patch, options);
        if (!plan) {
            // The message names the file and the blocks.
            failed(plan.error().message, plan.error().failures.empty()
                                             ? base::ErrorReason::other
                                             : reason_of_block_failure(text::to_string(plan.error().failures.front().kind)));
            continue;
        }
        work.plan = std::move(plan.value());
        if (const std::string why = relies_on(work, format); !why.empty()) {
            if (auto refusal = unseen_or_stale(ctx.file_states, work.before, work.source.display, why,
                                               "send the patch again, made on its current content")) {
                failed(std::move(refusal->message), refusal->reason);
                continue;
            }
        }
        text::DiffOptions diff_options;
        diff_options.old_path = work.source.display;
        diff_options.new_path = work.result_path().display;
        diff_options.old_missing = !work.before.exists;
        diff_options.new_missing = work.deleted();
        diff_options.max_bytes = 64 * 1024 / std::max<std::size_t>(1, files.size()) + 1024;
        work.diff = text::unified_diff(work.before.exists ? std::string_view(work.before.file.bytes) : std::string_view(),
                                       work.deleted() ? std::string_view() : std::string_view(work.plan.bytes), diff_options);
        work.new_hash = work.deleted() ? std::string("deleted") : os::content_fingerprint(work.plan.bytes);
        out.blocks += blocks_of(*work.patch);
    }
    if (!failures.empty()) {
        out.error = "The patch was not applied (all or nothing: no file was changed):" + failures;
        return out;
    }
    out.files = std::move(files);
    return out;
}

// Stages, verifies and commits every file; on any failure nothing stays changed. "" on success;
// else the error, and its reason in `reason` (conflict when a file changed meanwhile, io_error).
std::string write_all(const CallContext& ctx, std::vector<FileWork>& files, base::ErrorReason& reason) {
    reason = base::ErrorReason::io_error;
    std::vector<StagedChange> changes;
    changes.reserve(files.size() * 2);
    auto abandon = [&](const std::string& why) {
        std::string revert_errors;
        for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
            if (it->committed) {
                if (auto e = revert_committed(ctx, *it); !e.empty()) revert_errors += "\n- " + e;
            } else {
                discard_change(*it);
            }
        }
        if (revert_errors.empty()) return why + "\nNo file was changed (the files already written were restored).";
        return why + "\nRestoring the files already written failed for:" + revert_errors +
               "\nCheck them: they hold the patched content.";
    };
    // Writes before deletions, so a failure can still restore everything.
    for (auto& work : files) {
        if (work.deleted()) continue;
        const FileSnapshot& target = work.destination ? work.destination_before : work.before;
        changes.emplace_back();
        if (auto e = stage_change(ctx, target, work.plan.bytes, false, changes.back()); !e.empty()) {
            changes.pop_back();
            return abandon(e);
        }
    }
    for (auto& work : files) {
        if (!work.deleted() && !work.destination) continue;
        changes.emplace_back();
        if (auto e = stage_change(ctx, work.before, "", true, changes.back()); !e.empty()) {
            changes.pop_back();
            return abandon(e);
        }
    }
    for (const auto& change : changes) {
        if (auto conflict = verify_unchanged(ctx, *change.before); !conflict.empty()) {
            reason = base::ErrorReason::conflict;
            return abandon(conflict);
        }
    }
    for (auto& change : changes)
        if (auto e = commit_change(ctx, change); !e.empty()) return abandon(e);
    return "";
}

ToolResult build_result(const text::Patch& patch, const Planned& planned, bool dry_run, const ApprovalDecision* decision) {
    std::size_t additions = 0, removals = 0;
    Json files = Json::array();
    Json blocks = Json::array();
    std::string diffs;
    for (const auto& work : planned.files) {
        additions += work.diff.additions;
        removals += work.diff.removals;
        Json entry = {{"file_path", work.result_path().real},
                      {"diff", work.diff.text},
                      {"additions", work.diff.additions},
                      {"removals", work.diff.removals},
                      {"created", work.created()},
                      {"deleted", work.deleted()}};
        if (work.destination) entry["moved_from"] = work.source.real;
        files.push_back(std::move(entry));
        for (const auto& b : work.plan.blocks) {
            Json block = {{"index", b.index}, {"file_path", work.result_path().real}, {"line", b.line}, {"match", text::to_string(b.match)}};
            if (b.match == text::BlockMatch::fuzzy) block["similarity"] = b.similarity;
            blocks.push_back(std::move(block));
        }
        if (work.plan.blocks.empty()) {  // the section itself (see blocks_of): index 0, no block of its own
            const char* what = work.deleted() ? "deleted" : work.created() ? "created" : work.destination ? "moved" : "unchanged";
            blocks.push_back({{"index", 0}, {"file_path", work.result_path().real}, {"line", 1}, {"match", what}});
        }
        if (!diffs.empty()) diffs += "\n";
        diffs += work.diff.text;
    }
    std::string merged_note;
    for (const auto& work : planned.files) {
        if (work.aliases.empty()) continue;
        std::string names = work.patch->path.empty() ? work.source.display : work.patch->path;  // as the patch names them
        for (const auto& alias : work.aliases) names += " and " + alias;
        merged_note += " " + names + " are one file (" + work.alias_reason +
                       "): their sections were applied together, on its one content.";
    }
    std::string summary = std::string(dry_run ? "Dry run (nothing written): the patch would change " : "Applied the patch to ") +
                          std::to_string(planned.files.size()) + " file" + (planned.files.size() == 1 ? "" : "s") + " (" +
                          text::to_string(patch.format) + ", " + std::to_string(planned.blocks) + " block" +
                          (planned.blocks == 1 ? "" : "s") + ", +" + std::to_string(additions) + " -" + std::to_string(removals) + ")." +
                          merged_note;
    std::string approval = dry_run ? "none" : "policy";
    if (decision) {
        approval = to_string(decision->approval);
        if (!decision->message.empty()) summary += " " + decision->message;
        if (!decision->feedback.empty()) summary += "\nFeedback from the user: " + decision->feedback;
    }
    ToolResult result;
    result.text = summary + (diffs.empty() ? "" : "\n\n" + diffs);
    result.structured = {{"summary", summary},
                         {"format", text::to_string(patch.format)},
                         {"blocks_applied", planned.blocks},
                         {"files", std::move(files)},
                         {"blocks", std::move(blocks)},
                         {"additions", additions},
                         {"removals", removals},
                         {"dry_run", dry_run},
                         {"approval", approval}};
    if (decision && !decision->feedback.empty()) result.structured["feedback"] = decision->feedback;
    return result;
}

}  // namespace

Handler apply_diff_handler() {
    return [](CallContext& ctx, const Json& args) -> asio::awaitable<ToolResult> {
        const std::string diff_text = args.at("diff").get<std::string>();
        const bool dry_run = args.value("dry_run", false);
        const std::string file_path = args.value("file_path", "");
        const double fuzzy = args.value("fuzzy_threshold", ctx.fuzzy_threshold);

        auto parsed = text::parse_patch(diff_text);
        if (!parsed) {
            std::string message = parsed.error().message;
            if (looks_like_roo_xml(diff_text))
                message = roo_xml_note + std::string("\n") + message;
            co_return ToolResult::error(std::move(message), base::ErrorReason::invalid_arguments);
        }
        const text::Patch& patch = parsed.value();
        if (patch.files.empty())
            co_return ToolResult::error("The patch names no file and holds no block: nothing to apply.",
                                        base::ErrorReason::invalid_arguments);

        // Every path through the boundary, before anything is read. Sections that name one file
        // under different names (hard links, a symlink and its target, other spellings) become one
        // section, so the file is planned once, on one content, and written once.
        std::vector<FileWork> files;
        std::vector<platform::FileStat> identities;  // of each files[i].source, to find hard links
        std::deque<text::FilePatch> merged_patches;  // stable addresses for FileWork::patch
        std::set<std::string> seen;
        for (const auto& fp : patch.files) {
            FileWork work;
            work.patch = &fp;
            std::string name = fp.path.empty() ? file_path : fp.path;
            if (fp.path.empty() && file_path.empty()) {
                if (looks_like_roo_xml(diff_text))
                    co_return ToolResult::error(std::string(roo_xml_note) +
                                                    " For SEARCH/REPLACE blocks, set file_path to the file they change and "
                                                    "pass the blocks alone as diff (one call per file).",
                                                base::ErrorReason::invalid_arguments);
                co_return ToolResult::error("SEARCH/REPLACE blocks need file_path: call apply_diff with file_path set to the file they change.",
                                            base::ErrorReason::invalid_arguments);
            }
            os::PathError error;
            if (!ctx.workspace.resolve(name, work.source, error)) co_return ToolResult::error(error.message, error.reason);
            if (fp.move_to) {
                os::ResolvedPath destination;
                if (!ctx.workspace.resolve(*fp.move_to, destination, error))
                    co_return ToolResult::error(error.message, error.reason);
                work.destination = destination;
            }
            const platform::FileStat identity = platform::stat_path(work.source.real);
            if (auto same = same_file(files, identities, work.source, identity); same != files.size()) {
                FileWork& first = files[same];
                const bool hard_link = first.source.real != work.source.real;
                const std::string reason = hard_link ? "hard links: the same device and inode"
                                                     : "the same file through a symlink or another spelling of its path";
                const bool both_change = fp.action == text::FileAction::update && !fp.move_to &&
                                         first.patch->action == text::FileAction::update && !first.destination;
                if (!both_change)
                    co_return ToolResult::error(
                        "The patch was not applied (no file was changed): its sections for " + first.patch->path + " and " +
                        fp.path + " name one file (" + reason + "), and one of them " +
                        (fp.action == text::FileAction::create || first.patch->action == text::FileAction::create ? "creates"
                         : fp.action == text::FileAction::remove || first.patch->action == text::FileAction::remove ? "deletes"
                                                                                                                   : "moves") +
                        " it. Put all of this file's changes in one section, under one name, and call again.");
                if (!first.own_patch) {
                    first.own_patch = &merged_patches.emplace_back(*first.patch);
                    first.patch = first.own_patch;
                }
                // All located on the file's one content, as one section's blocks are.
                first.own_patch->blocks.insert(first.own_patch->blocks.end(), fp.blocks.begin(), fp.blocks.end());
                first.aliases.push_back(fp.path.empty() ? work.source.display : fp.path);
                if (first.alias_reason.empty() || hard_link)
                    first.alias_reason = hard_link ? "hard links" : "a symlink or another spelling of its path";
                continue;
            }
            for (const auto* p : {&work.source, work.destination ? &*work.destination : nullptr}) {
                if (!p) continue;
                if (!seen.insert(p->real).second)
                    co_return ToolResult::error("The patch touches " + p->display +
                                                " twice; put all of a file's changes in one section and call again.",
                                                base::ErrorReason::invalid_arguments);
            }
            files.push_back(std::move(work));
            identities.push_back(identity);
        }

        // Lanes in sorted order (no deadlock with another multi-file change).
        std::vector<std::string> keys;
        for (const auto& p : seen) keys.push_back(lane_key(p));
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        std::vector<FileLanes::Guard> lanes;
        for (auto& key : keys) lanes.push_back(co_await ctx.lanes.acquire(key));
        if (ctx.cancelled->load())
            co_return ToolResult::error("Cancelled by the client; nothing was written.", base::ErrorReason::cancelled);

        Planned planned = co_await offload(ctx.blocking, [&ctx, &files, fuzzy, &patch] {
            return plan_patch(ctx, std::move(files), fuzzy, patch.format);
        });
        if (!planned.error.empty()) co_return ToolResult::error(std::move(planned.error), planned.reason);
        if (dry_run) co_return build_result(patch, planned, true, nullptr);

        ApprovalRequest ask;
        ask.tool = "apply_diff";
        for (const auto& work : planned.files) {
            ask.paths.push_back(work.result_path().display);
            ask.additions += work.diff.additions;
            ask.removals += work.diff.removals;
            ask.diff += (ask.diff.empty() ? "" : "\n") + work.diff.text;
            const std::string* result = work.deleted() ? nullptr : &work.plan.bytes;
            if (work.destination) {
                ask.images.push_back({work.source.real, &work.before.file.bytes, nullptr});
                ask.images.push_back({work.destination->real, nullptr, result});
            } else {
                ask.images.push_back({work.source.real, work.before.exists ? &work.before.file.bytes : nullptr, result});
            }
        }
        const auto reads_go_on = [&ctx, &lanes](bool waiting) {
            for (const auto& lane : lanes) ctx.lanes.waiting_for_human(lane.key(), waiting);
        };
        ask.waiting_for_human = [&reads_go_on] { reads_go_on(true); };
        const ApprovalDecision decision = co_await ctx.approve(ask);
        reads_go_on(false);
        if (auto answer = unless_approved(ctx, decision)) co_return std::move(*answer);

        base::ErrorReason write_reason = base::ErrorReason::io_error;
        std::string write_error = co_await offload(
            ctx.blocking, [&ctx, &planned, &write_reason] { return write_all(ctx, planned.files, write_reason); });
        if (!write_error.empty()) co_return ToolResult::error(std::move(write_error), write_reason);

        ToolResult result = build_result(patch, planned, false, &decision);
        for (auto& work : planned.files) {
            const std::string& real = work.result_path().real;
            if (work.deleted()) ctx.file_states.forget(work.source.real);
            else ctx.file_states.record(real, work.new_hash);
            if (work.destination) ctx.file_states.forget(work.source.real);
            if (!ctx.history) continue;
            if (work.destination) {
                ctx.history->record("apply_diff", work.source.real, true, work.before.file.bytes, "", "deleted");
                ctx.history->record("apply_diff", real, false, "", std::move(work.plan.bytes), work.new_hash);
            } else {
                ctx.history->record("apply_diff", real, work.before.exists, std::move(work.before.file.bytes),
                                    std::move(work.plan.bytes), work.new_hash);
            }
        }
        spdlog::debug("apply_diff wrote {} file(s)", planned.files.size());
        co_return result;
    };
}

}  // namespace tools
