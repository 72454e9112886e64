// The `apply_diff` tool: a patch in one of the formats agents write (SEARCH/REPLACE blocks, a
// unified diff, an `*** Begin Patch` envelope), over one or several files, as one transaction:
// every file planned, every lane taken (sorted), one approval, every file staged and verified,
// then renamed; a failure rolls back what was renamed. Nothing is ever half-applied.
#include <algorithm>
#include <deque>
#include <set>

#include "tools/handlers/apply_diff_messages.hpp"
#include "tools/pipeline/call_shapes.hpp"
#include "tools/pipeline/change.hpp"
#include "text/diff/elision.hpp"
#include "tools/pipeline/change_report.hpp"
#include "tools/handlers/patch_files.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/pipeline/transaction.hpp"
#include "tools/catalog.hpp"
#include "text/patch/patch_detect.hpp"
#include "text/plan/patch_plan.hpp"
#include "text/diff/unified_diff.hpp"

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

// A refusal of one of the patch's files: the patch as a whole was not applied.
ToolResult not_applied(base::Failure failure) {
    return ToolResult::error(patch_not_applied_message(failure.message), failure.reason);
}

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

// The report of the patch's change; takes the diffs out of `planned`.
ToolResult report(const text::Patch& patch, PlannedPatch& planned, bool dry_run, const ApprovalDecision* decision,
                  std::vector<checks::CheckOutcome> checks = {}, std::vector<std::string> notes = {}) {
    ChangeReport out;
    for (auto& work : planned.files)
        for (auto& note : work.notes) out.notes.push_back(std::move(note));
    for (auto& note : notes) out.notes.push_back(std::move(note));
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
        merged_note += merged_names_note(names, work.alias_reason);
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
    out.summary = patch_summary(dry_run, planned.files.size(), kinds, text::to_string(patch.format), planned.blocks,
                                additions, removals) +
                  merged_note;
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
            e.message = roo_file_message(file.path, e.message);
            return base::fail(std::move(e));
        }
        if (one->format != text::PatchFormat::search_replace || one->files.size() != 1 || !one->files[0].path.empty()) {
            return base::fail(text::PatchError{roo_file_not_search_replace_message(file.path), 0});
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
    const double fuzzy = args.fuzzy_threshold.value_or(ctx.settings.fuzzy_threshold);

    auto parsed = starts_as_roo_xml(diff_text) ? parse_roo_files(diff_text) : text::parse_patch(diff_text);
    if (!parsed) {
        std::string message = parsed.error().message;
        if (mentions_roo_xml(diff_text)) message = roo_xml_message(message);
        co_return ToolResult::error(std::move(message), base::ErrorReason::invalid_arguments);
    }
    const text::Patch& patch = parsed.value();
    if (patch.files.empty()) co_return ToolResult::error(empty_patch_message(), base::ErrorReason::invalid_arguments);

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
                co_return ToolResult::error(roo_xml_without_file_path_message(), base::ErrorReason::invalid_arguments);
            co_return ToolResult::error(blocks_need_file_path_message(), base::ErrorReason::invalid_arguments);
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
                co_return ToolResult::error(one_file_in_two_sections_message(
                    first.patch->path, fp.path, reason,
                    fp.action == text::FileAction::create || first.patch->action == text::FileAction::create,
                    fp.action == text::FileAction::remove || first.patch->action == text::FileAction::remove));
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
                co_return ToolResult::error(file_touched_twice_message(p->display),
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

    if (!dry_run && !ctx.settings.write_through_hard_links)
        for (const auto& work : planned.files)
            if (!work.destination && work.alias_reason == "hard links" &&
                work.before.file.stat.links > 1 + work.aliases.size())
                co_return ToolResult::error(some_hard_link_names_message(1 + work.aliases.size(), work.source.display,
                                                                         work.before.file.stat.links),
                                            base::ErrorReason::invalid_arguments);
    ChangeSteps steps;
    for (const auto& work : planned.files)
        steps.shown.add(work.result_path().display, work.diff,
                        work.before.exists ? text::count_lines(work.before.file.shown()) : 0,
                        work.before.file.written_encoding());
    steps.dry_run = dry_run;
    steps.refuse_elisions = true;
    Transaction change("apply_diff", std::move(lanes));
    hand_over(planned.files, change);
    co_return co_await change.carry_out(ctx, std::move(steps), [&patch, &planned, dry_run](CarriedOutChange done) {
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
