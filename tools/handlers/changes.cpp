// The `changes` tool: the session patch (or one file's part of it) for hosts that call tools but
// ignore resources (Claude Code, Codex): the same diffs as mcp-edit://session/patch.
#include "tools/pipeline/change.hpp"
#include "tools/pipeline/change_report.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/catalog.hpp"
#include "ledger/session_patch.hpp"

namespace tools {

struct ChangesArgs {
    std::string file_path;  // "" for every file
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ChangesArgs, file_path)

asio::awaitable<ToolResult> run_changes(CallContext& ctx, ChangesArgs args) {
    if (!ctx.session_changes)
        co_return ToolResult::error("This server keeps no record of its changes.", base::ErrorReason::internal);
    std::vector<ledger::SessionChanges::File> files;
    if (args.file_path.empty()) {
        files = ctx.session_changes->files();
    } else {
        auto resolved = ctx.workspace.resolve(args.file_path);
        if (!resolved) co_return ToolResult::error(resolved.error().message, resolved.error().reason);
        const os::ResolvedPath& path = *resolved;
        auto file = ctx.session_changes->find(path.real);
        if (!file)
            co_return ToolResult::error("This session has not changed " + path.display +
                                            ". Call changes without file_path to list every file it changed.",
                                        base::ErrorReason::not_found);
        files.push_back(std::move(*file));
    }
    // Each file's lane once, so a change whose bookkeeping is still running is seen whole.
    for (auto& file : files) {
        auto lane = co_await ctx.lanes.acquire_for_read(lane_key(file.real_path));
        if (file.base_pending)
            if (auto now = ctx.session_changes->find(file.real_path)) file = std::move(*now);
    }
    const std::uint64_t max_file_size = ctx.settings.limits.max_file_size;
    const bool withhold_linked = ctx.ignore && ctx.ignore->settings().ignore_reads;
    ledger::SessionPatch patch =
        co_await WorkPlacement::run(ctx, false, [&files, &ctx, max_file_size, withhold_linked] {
            return ledger::session_patch(files, ctx.workspace, max_file_size, withhold_linked);
        });

    ToolResult result;
    std::string summary;
    if (patch.files.empty()) {
        summary = "This session has changed no file yet.";
    } else {
        summary = (args.file_path.empty() ? "This session changed " + count_of(patch.files.size(), "file")
                                          : "This session changed " + patch.files.front().display + " " +
                                                count_of(patch.files.front().changes, "time")) +
                  "; against their state before its first change, " + count_of(patch.files_differing, "file") +
                  " differ now (+" + std::to_string(patch.additions) + " -" + std::to_string(patch.removals) + ").";
    }
    bool truncated = false;
    if (patch.text.size() > ctx.max_result_text()) {
        patch.text.resize(ctx.max_result_text());
        patch.text.erase(patch.text.rfind('\n') + 1);
        patch.text +=
            "# ... cut here at " + std::to_string(ctx.max_result_text()) +
            " bytes: read the resource mcp-edit://session/patch, or call changes with file_path for one file\n";
        truncated = true;
    }
    Json files_json = Json::array();
    for (const auto& f : patch.files) {
        files_json.push_back({{"file_path", f.real_path},
                              {"uri", f.uri},
                              {"changes", f.changes},
                              {"created", f.created},
                              {"deleted", f.deleted},
                              {"additions", f.additions},
                              {"removals", f.removals}});
        if (f.renamed_from) files_json.back()["renamed_from"] = *f.renamed_from;
        if (f.renamed_to) files_json.back()["renamed_to"] = *f.renamed_to;
    }
    result.text = patch.text.empty() ? summary : summary + "\n\n" + patch.text;
    result.structured = {{"summary", summary}, {"patch", patch.text}, {"files", std::move(files_json)}};
    if (truncated) result.structured["patch_truncated"] = true;
    co_return result;
}

const ToolSpec& changes_tool() {
    static const ToolSpec spec =
        define_tool("changes", &run_changes,
                    {
                        .kind = ToolKind::session_patch,
                        .safety_arguments = "",
                        .summary = "What this session changed, as one patch, with Undo per file",
                    });
    return spec;
}

}  // namespace tools
