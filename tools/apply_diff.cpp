// The `apply_diff` tool: a patch in one of the formats agents write (SEARCH/REPLACE blocks, a
// unified diff, an `*** Begin Patch` envelope), over one or several files, as one transaction:
// every file planned, every lane taken (sorted), one approval, every file staged and verified,
// then renamed; a failure rolls back what was renamed. Nothing is ever half-applied.
#include <algorithm>
#include <deque>
#include <set>

#include "tools/call_shapes.hpp"
#include "tools/change.hpp"
#include "text/elision.hpp"
#include "tools/change_report.hpp"
#include "tools/placement.hpp"
#include "tools/transaction.hpp"
#include "tools/catalog.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_plan.hpp"
#include "text/unified_diff.hpp"

namespace tools {

struct ApplyDiffArgs {
    std::string file_path;  // "" when not given (the patch names its files)
    std::string diff;
    std::optional<double> fuzzy_threshold;  // nullopt: the server's --fuzzy-threshold
    bool dry_run = false;
};
inline void from_json(const nlohmann::json& j, ApplyDiffArgs& out) {
    out.file_path = j.value("file_path", std::string());
    out.diff = j.at("diff").get<std::string>();
    if (const auto it = j.find("fuzzy_threshold"); it != j.end()) out.fuzzy_threshold = it->get<double>();
    out.dry_run = j.value("dry_run", false);
}
inline void to_json(nlohmann::json& j, const ApplyDiffArgs& in) {
    j = {{"file_path", in.file_path}, {"diff", in.diff}, {"dry_run", in.dry_run}};
    j["fuzzy_threshold"] = in.fuzzy_threshold ? nlohmann::json(*in.fuzzy_threshold) : nlohmann::json();
}

namespace {

// One file of the patch, from its paths to its planned bytes.
struct FileWork {
    const text::FilePatch* patch = nullptr;
    os::ResolvedPath source;
    std::optional<os::ResolvedPath> destination;  // a move
    FileSnapshot before;                          // the source as it is
    FileSnapshot destination_before;              // the move's target (must be absent)
    text::FilePlan plan;
    text::UnifiedDiff diff;
    // Other names of this file that had their own section (hard links, symlinks, other spellings),
    // and how they are the same file: their blocks were merged into this one's.
    std::vector<std::string> aliases;
    std::string alias_reason;
    text::FilePatch* own_patch = nullptr;  // the merged section (in the handler's store) when aliases exist
    bool created() const { return patch->action == text::FileAction::create; }
    bool deleted() const { return patch->action == text::FileAction::remove; }
    const os::ResolvedPath& result_path() const { return destination ? *destination : source; }
};

struct PlannedPatch {
    std::vector<FileWork> files;
    std::size_t blocks = 0;
};

// The reason for a text::BlockFailure kind. No default: a new kind must be given its reason here.
base::ErrorReason reason_of_block_failure(text::BlockFailureKind kind) {
    switch (kind) {
        case text::BlockFailureKind::not_found: return base::ErrorReason::not_found;
        case text::BlockFailureKind::ambiguous: return base::ErrorReason::ambiguous;
        case text::BlockFailureKind::already_applied: return base::ErrorReason::already_applied;
        case text::BlockFailureKind::overlap: return base::ErrorReason::overlap;
        case text::BlockFailureKind::already_exists: return base::ErrorReason::exists;
        case text::BlockFailureKind::identical:
        case text::BlockFailureKind::bad_line: return base::ErrorReason::invalid_arguments;
    }
    return base::ErrorReason::other;  // not reached: every kind is named above
}

// A refusal of one of the patch's files: the patch as a whole was not applied.
ToolResult not_applied(base::Failure failure) {
    return ToolResult::error("The patch was not applied (no file was changed): " + failure.message, failure.reason);
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
std::size_t same_file(const std::vector<FileWork>& files, const std::vector<os::FileStat>& identities,
                      const os::ResolvedPath& path, const os::FileStat& identity) {
    const bool exists = identity.kind != os::FileKind::missing;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].source.real == path.real) return i;
        if (exists && identities[i].kind != os::FileKind::missing && identities[i].identity == identity.identity)
            return i;
    }
    return files.size();
}

base::Result<FileSnapshot> load_snapshot(const CallContext& ctx, const os::ResolvedPath& path) {
    FileSnapshot out;
    out.file.path = path;
    out.exists = os::stat_path(path.real).kind != os::FileKind::missing;
    if (!out.exists) return out;
    if (auto loaded = load_text_file(ctx, path.real, out.file); !loaded) return base::fail(std::move(loaded).error());
    out.file.path = path;
    return out;
}

// What a planned file's change relies on having been seen by the model ("" when nothing): a
// deletion that does not show the content it deletes (one that does was checked against the
// file), or lines placed by a line number alone (a block with no lines of the file to match).
std::string relies_on(const FileWork& work, text::PatchFormat format) {
    if (work.deleted()) return work.patch->blocks.empty() ? "the patch deletes it without showing its content" : "";
    const char* block = format == text::PatchFormat::unified       ? "hunk"
                        : format == text::PatchFormat::apply_patch ? "chunk"
                                                                   : "block";
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
    return "the patch places lines by line number alone (" + placed +
           "; no lines of the file to match), which must come from its current content";
}

base::Result<PlannedPatch> plan_patch(const CallContext& ctx, std::vector<FileWork> files, double fuzzy_threshold,
                                      text::PatchFormat format) {
    PlannedPatch out;
    std::string failures;
    base::ErrorReason first_reason = base::ErrorReason::other;  // the first failure's reason stands for the patch's
    auto failed = [&](std::string text, base::ErrorReason reason) {
        if (failures.empty()) first_reason = reason;
        failures += "\n- " + text;
    };
    for (auto& work : files) {
        auto source = load_snapshot(ctx, work.source);
        if (!source) {
            failed(work.source.display + ": " + source.error().message, source.error().reason);
            continue;
        }
        work.before = std::move(source).value();
        if (work.destination) {
            auto destination = load_snapshot(ctx, *work.destination);
            if (!destination) {
                failed(work.destination->display + ": " + destination.error().message, destination.error().reason);
                continue;
            }
            work.destination_before = std::move(destination).value();
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
                                             : reason_of_block_failure(plan.error().failures.front().kind));
            continue;
        }
        work.plan = std::move(plan.value());
        if (const std::string why = relies_on(work, format); !why.empty()) {
            if (auto seen = seen_and_unchanged(ctx.file_states, work.before, work.source.display, why,
                                               "send the patch again, made on its current content");
                !seen) {
                failed(std::move(seen).error().message, seen.error().reason);
                continue;
            }
        }
        text::DiffOptions diff_options;
        diff_options.old_path = work.source.display;
        diff_options.new_path = work.result_path().display;
        diff_options.old_missing = !work.before.exists;
        diff_options.new_missing = work.deleted();
        diff_options.max_bytes = 64 * 1024 / std::max<std::size_t>(1, files.size()) + 1024;
        work.diff =
            text::unified_diff(work.before.exists ? std::string_view(work.before.file.bytes) : std::string_view(),
                               work.deleted() ? std::string_view() : std::string_view(work.plan.bytes), diff_options);
        out.blocks += blocks_of(*work.patch);
    }
    if (!failures.empty())
        return plan_error("The patch was not applied (all or nothing: no file was changed):" + failures, first_reason);
    out.files = std::move(files);
    return out;
}

// Moves every planned file into `change`: writes before deletions (and a move's source after its
// destination is written), so a failure can still restore everything.
void hand_over(std::vector<FileWork>& files, Transaction& change) {
    for (auto& work : files) {
        if (work.deleted()) continue;
        FileSnapshot& target = work.destination ? work.destination_before : work.before;
        // Sections for every name of a file (hard links) in one patch: each name shows the result.
        const bool every_name =
            !work.destination && work.alias_reason == "hard links" && target.file.stat.links <= 1 + work.aliases.size();
        // A move's new file takes the old one's mode, and both sides name each other in the history
        // (undo of either moves it back).
        std::optional<os::FileStat> like;
        if (work.destination && !target.exists) like = work.before.file.stat;
        std::string partner = work.destination ? work.source.real : std::string();
        change.changes().push_back(
            {std::move(target), std::move(work.plan.bytes), false, every_name, like, std::move(partner)});
    }
    for (auto& work : files)
        if (work.deleted() || work.destination)
            change.changes().push_back({std::move(work.before), "", true, false, std::nullopt,
                                        work.destination ? work.destination->real : std::string()});
}

// The report of the patch's change; takes the diffs out of `planned`.
ToolResult report(const text::Patch& patch, PlannedPatch& planned, bool dry_run, const ApprovalDecision* decision,
                  std::vector<checks::CheckOutcome> checks = {}, std::vector<std::string> notes = {}) {
    ChangeReport out;
    out.notes = std::move(notes);
    out.checks = std::move(checks);
    out.shape = ChangeReport::Shape::files;
    out.dry_run = dry_run;
    out.decision = decision;
    std::size_t additions = 0, removals = 0;
    Json blocks = Json::array();
    for (auto& work : planned.files) {
        additions += work.diff.additions;
        removals += work.diff.removals;
        const std::string& path = work.result_path().real;
        for (const auto& b : work.plan.blocks) {
            Json block = {
                {"index", b.index}, {"file_path", path}, {"line", b.line}, {"match", text::to_string(b.match)}};
            if (b.match == text::BlockMatch::fuzzy) block["similarity"] = b.similarity;
            blocks.push_back(std::move(block));
        }
        if (work.plan.blocks.empty()) {  // the section itself (see blocks_of): index 0, no block of its own
            const char* what = work.deleted()     ? "deleted"
                               : work.created()   ? "created"
                               : work.destination ? "moved"
                                                  : "unchanged";
            blocks.push_back({{"index", 0}, {"file_path", path}, {"line", 1}, {"match", what}});
        }
        out.files.push_back({path, std::move(work.diff), work.created(), work.deleted(),
                             work.destination ? std::optional<std::string>(work.source.real) : std::nullopt});
    }
    std::string merged_note;
    for (const auto& work : planned.files) {
        if (work.aliases.empty()) continue;
        std::string names =
            work.patch->path.empty() ? work.source.display : work.patch->path;  // as the patch names them
        for (const auto& alias : work.aliases) names += " and " + alias;
        merged_note += " " + names + " are one file (" + work.alias_reason +
                       "): their sections were applied together, on its one content.";
    }
    // What happens to the files besides changes to their lines, so that a patch that deletes 2,000
    // files says so in its first sentence.
    std::size_t created = 0, deleted = 0, moved = 0;
    for (const auto& file : out.files) {
        created += file.created;
        deleted += file.deleted;
        moved += file.moved_from.has_value();
    }
    std::string kinds;
    for (const auto& [count, what] :
         {std::pair{deleted, "deleted"}, std::pair{created, "created"}, std::pair{moved, "moved"}})
        if (count) kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    out.summary =
        std::string(dry_run ? "Dry run (nothing written): the patch would change " : "Applied the patch to ") +
        std::to_string(planned.files.size()) + " file" + (planned.files.size() == 1 ? "" : "s") + " (" +
        (kinds.empty() ? std::string() : kinds + "; ") + text::to_string(patch.format) + ", " +
        std::to_string(planned.blocks) + " block" + (planned.blocks == 1 ? "" : "s") + ", +" +
        std::to_string(additions) + " -" + std::to_string(removals) + ")." + merged_note;
    out.fields = {
        {"format", text::to_string(patch.format)}, {"blocks_applied", planned.blocks}, {"blocks", std::move(blocks)}};
    return to_tool_result(std::move(out));
}

// Roo Code's XML naming several files (call shapes leave it in `diff`): each file's SEARCH/REPLACE
// blocks, read as that file's part of one patch. XML with one file was already mapped to
// file_path and diff; anything else goes to the format detector, which says what it is.
base::Result<text::Patch, text::PatchError> parse_roo_files(const std::string& diff_text) {
    auto xml = parse_roo_xml(diff_text);
    if (!xml || xml->size() < 2) return text::parse_patch(diff_text);
    text::Patch patch;
    patch.format = text::PatchFormat::search_replace;
    for (RooFileDiff& file : xml.value()) {
        auto one = text::parse_patch(file.diff);
        if (!one) {
            text::PatchError e = one.error();
            e.message = "In the XML's <file> for " + file.path + ": " + e.message;
            return base::fail(std::move(e));
        }
        if (one->format != text::PatchFormat::search_replace || one->files.size() != 1 || !one->files[0].path.empty()) {
            return base::fail(text::PatchError{"In the XML's <file> for " + file.path +
                                                   ": its <content> is not SEARCH/REPLACE blocks. Nothing was changed.",
                                               0});
        }
        text::FilePatch fp = std::move(one->files[0]);
        fp.path = std::move(file.path);
        for (text::PatchBlock& b : fp.blocks) b.index = ++patch.block_count;
        patch.files.push_back(std::move(fp));
    }
    return patch;
}

}  // namespace

asio::awaitable<ToolResult> run_apply_diff(CallContext& ctx, ApplyDiffArgs args) {
    const std::string& diff_text = args.diff;
    const bool dry_run = args.dry_run;
    const std::string& file_path = args.file_path;
    const double fuzzy = args.fuzzy_threshold.value_or(ctx.fuzzy_threshold);

    auto parsed = starts_as_roo_xml(diff_text) ? parse_roo_files(diff_text) : text::parse_patch(diff_text);
    if (!parsed) {
        std::string message = parsed.error().message;
        if (mentions_roo_xml(diff_text)) message = roo_xml_note + std::string("\n") + message;
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
    std::vector<os::FileStat> identities;        // of each files[i].source, to find hard links
    std::deque<text::FilePatch> merged_patches;  // stable addresses for FileWork::patch
    std::set<std::string> seen;
    for (const auto& fp : patch.files) {
        FileWork work;
        work.patch = &fp;
        std::string name = fp.path.empty() ? file_path : fp.path;
        if (fp.path.empty() && file_path.empty()) {
            if (mentions_roo_xml(diff_text))
                co_return ToolResult::error(std::string(roo_xml_note) +
                                                " For SEARCH/REPLACE blocks, set file_path to the file they change and "
                                                "pass the blocks alone as diff (one call per file).",
                                            base::ErrorReason::invalid_arguments);
            co_return ToolResult::error(
                "SEARCH/REPLACE blocks need file_path: call apply_diff with file_path set to the file they change.",
                base::ErrorReason::invalid_arguments);
        }
        auto source = ctx.workspace.resolve(name);
        if (!source) co_return ToolResult::error(source.error().message, source.error().reason);
        work.source = std::move(source).value();
        if (auto refused = refuse_ignored(ctx, work.source, true); !refused)
            co_return not_applied(std::move(refused).error());
        if (fp.move_to) {
            auto destination = ctx.workspace.resolve(*fp.move_to);
            if (!destination) co_return ToolResult::error(destination.error().message, destination.error().reason);
            if (auto refused = refuse_ignored(ctx, *destination, true); !refused)
                co_return not_applied(std::move(refused).error());
            work.destination = std::move(destination).value();
        }
        const os::FileStat identity = os::stat_path(work.source.real);
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
                    (fp.action == text::FileAction::create || first.patch->action == text::FileAction::create
                         ? "creates"
                     : fp.action == text::FileAction::remove || first.patch->action == text::FileAction::remove
                         ? "deletes"
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

    // Every file's lane (in sorted order: no deadlock with another multi-file change).
    std::vector<std::string> keys;
    for (const auto& p : seen) keys.push_back(lane_key(p));
    std::vector<ledger::FileLanes::Guard> lanes = co_await ctx.lanes.acquire_all(std::move(keys));
    if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);

    // Planned where WorkPlacement says, from the patch's size and its files' sizes as stat saw them.
    std::vector<std::uint64_t> sizes{diff_text.size()};
    for (const auto& identity : identities) sizes.push_back(identity.size);
    base::Result<PlannedPatch> outcome = co_await WorkPlacement::run(
        ctx, WorkPlacement::inline_now(ctx, sizes),
        [&ctx, &files, fuzzy, &patch] { return plan_patch(ctx, std::move(files), fuzzy, patch.format); });
    if (!outcome) co_return ToolResult::error(std::move(outcome).error());
    PlannedPatch& planned = outcome.value();

    if (!dry_run && !ctx.write_through_hard_links)
        for (const auto& work : planned.files)
            if (!work.destination && work.alias_reason == "hard links" &&
                work.before.file.stat.links > 1 + work.aliases.size())
                co_return ToolResult::error(
                    "Refused: the patch names " + std::to_string(1 + work.aliases.size()) + " names of one file (" +
                        work.source.display + " and its hard links), which has " +
                        std::to_string(work.before.file.stat.links) +
                        " names; the others may lie outside the roots or be ignored, so it is not written through "
                        "them. "
                        "Send the sections for one of its names only: that name then gets a file of its own and the "
                        "other names keep the old content. Nothing was written.",
                    base::ErrorReason::invalid_arguments);
    Steps steps;
    for (const auto& work : planned.files)
        steps.shown.add(work.result_path().display, work.diff,
                        work.before.exists ? text::count_lines(work.before.file.bytes) : 0);
    steps.dry_run = dry_run;
    steps.refuse_elisions = true;
    Transaction change("apply_diff", std::move(lanes));
    hand_over(planned.files, change);
    co_return co_await change.carry_out(ctx, std::move(steps), [&patch, &planned, dry_run](Done done) {
        return report(patch, planned, dry_run, done.decision, std::move(done.checks), std::move(done.notes));
    });
}

const ToolSpec& apply_diff_tool() {
    static const ToolSpec spec =
        define_tool("apply_diff", &run_apply_diff,
                    {
                        .kind = ToolKind::change,
                        .safety_arguments = "`dry_run` (or `preview`)",
                        .summary = "Apply a unified diff, search/replace blocks or an apply_patch envelope",
                    });
    return spec;
}

}  // namespace tools
