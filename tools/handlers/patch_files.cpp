// The files of an apply_diff patch planned (patch_files.hpp): loaded, planned with text::plan_file_patch,
// checked against what the model has seen when the patch relies on it, diffed; then handed over.
#include "tools/handlers/patch_files.hpp"

#include <algorithm>

#include "tools/handlers/apply_diff_messages.hpp"
#include "tools/pipeline/change.hpp"
#include "tools/pipeline/new_file.hpp"

namespace tools {

namespace {

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
    if (work.deleted()) return work.patch->blocks.empty() ? deletes_unseen_reason() : "";
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
    return placed_by_line_number_reason(placed);
}

}  // namespace

// A file's section that has no block of its own (a deletion, a move, an empty creation) still
// counts as one step of the patch: it is reported as one block.
std::size_t blocks_of(const text::FilePatch& patch) { return std::max<std::size_t>(1, patch.blocks.size()); }

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
            failed(move_target_exists_message(work.source.display, work.destination->display),
                   base::ErrorReason::exists);
            continue;
        }
        const auto action = work.patch->action;
        if (action != text::FileAction::create && !work.before.exists) {
            failed(patched_file_missing_message(work.source.display, action == text::FileAction::remove),
                   base::ErrorReason::not_found);
            continue;
        }
        text::PlanOptions options;
        options.format = format;
        options.display_path = work.source.display;
        options.fuzzy_threshold = fuzzy_threshold;
        std::optional<std::string_view> original;
        if (work.before.exists) original = work.before.file.shown();  // a file in another encoding: its text
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
            if (auto seen =
                    seen_and_unchanged(ctx.file_states, work.before, work.source.display, why, send_patch_again_next());
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
            text::unified_diff(work.before.exists ? work.before.file.shown() : std::string_view(),
                               work.deleted() ? std::string_view() : std::string_view(work.plan.bytes), diff_options);
        // A new file: written as the project says new files are (.editorconfig, .gitattributes).
        if (!work.before.exists && !work.deleted()) {
            auto shaped = shape_new_file(work.result_path(), std::move(work.plan.bytes));
            if (!shaped) {
                failed(std::move(shaped).error().message, base::ErrorReason::invalid_arguments);
                continue;
            }
            work.diff = text::unified_diff({}, shaped->text, diff_options);
            work.plan.bytes = std::move(shaped->bytes);
            for (auto& note : shaped->notes) work.notes.push_back(std::move(note));
        }
        // Planned as text, written in the file's own encoding (a move's new file in its source's).
        if (work.before.exists && work.before.file.encoding.transcoded && !work.deleted()) {
            auto bytes = work.before.file.encoding.bytes_of(work.plan.bytes, work.result_path().display);
            if (!bytes) {
                failed(std::move(bytes).error().message, base::ErrorReason::invalid_arguments);
                continue;
            }
            work.plan.bytes = std::move(*bytes);
        }
        out.blocks += blocks_of(*work.patch);
    }
    if (!failures.empty()) return plan_error(patch_failed_message(failures), first_reason);
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

}  // namespace tools
