// The planner: locate every block on the original bytes (plan_locate.hpp's strategies), check
// that no two overlap, assemble them at once (plan_assembly.hpp); or create or delete the file.
// Every message comes from plan_messages.hpp.
#include "text/plan/patch_plan.hpp"

#include <algorithm>
#include <utility>

#include "text/match/normalized_view.hpp"
#include "text/plan/plan_assembly.hpp"
#include "text/plan/plan_locate.hpp"
#include "text/plan/plan_messages.hpp"

namespace text {

const char* to_string(BlockMatch match) {
    switch (match) {
        case BlockMatch::exact: return to_string(MatchTier::exact);
        case BlockMatch::trailing_whitespace: return to_string(MatchTier::trailing_whitespace);
        case BlockMatch::unicode_normalized: return to_string(MatchTier::unicode_normalized);
        case BlockMatch::indentation: return to_string(MatchTier::indentation);
        case BlockMatch::line_numbers: return to_string(MatchTier::line_numbers);
        case BlockMatch::fuzzy: return "fuzzy";
        case BlockMatch::aligned: return "aligned";
        case BlockMatch::inserted: return "inserted";
        case BlockMatch::created: return "created";
        case BlockMatch::deleted: return "deleted";
    }
    return "exact";
}

BlockMatch block_match(MatchTier tier) {
    switch (tier) {
        case MatchTier::exact: return BlockMatch::exact;
        case MatchTier::trailing_whitespace: return BlockMatch::trailing_whitespace;
        case MatchTier::unicode_normalized: return BlockMatch::unicode_normalized;
        case MatchTier::indentation: return BlockMatch::indentation;
        case MatchTier::line_numbers: return BlockMatch::line_numbers;
    }
    return BlockMatch::exact;
}

const char* to_string(BlockFailureKind kind) {
    switch (kind) {
        case BlockFailureKind::not_found: return "not_found";
        case BlockFailureKind::already_applied: return "already_applied";
        case BlockFailureKind::ambiguous: return "ambiguous";
        case BlockFailureKind::identical: return "identical";
        case BlockFailureKind::overlap: return "overlap";
        case BlockFailureKind::bad_line: return "bad_line";
        case BlockFailureKind::already_exists: return "already_exists";
    }
    return "not_found";
}

namespace {

class Planner {
public:
    Planner(std::optional<std::string_view> original, const FilePatch& file, const PlanOptions& options)
        : original_(original),
          patch_(file),
          file_(original.value_or(std::string_view())),
          ctx_{options,
               PlanSubject{options.format, plan_words(options.format),
                           !file.path.empty()              ? file.path
                           : !options.display_path.empty() ? std::string(options.display_path)
                                                           : std::string("the file")},
               file_} {}

    base::Result<FilePlan, PlanError> run() {
        switch (patch_.action) {
            case FileAction::create: return create();
            case FileAction::remove: return remove();
            case FileAction::update: return update();
        }
        return update();
    }

private:
    base::Result<FilePlan, PlanError> update() {
        if (!original_) return whole_failure(BlockFailureKind::not_found, missing_file_message(ctx_.subject));
        std::vector<Located> located;
        located.reserve(patch_.blocks.size());
        std::vector<BlockFailure> failures;
        SimilarityBudget budget;
        std::size_t previous_end = 0;  // last line of the previous located block (apply_patch order)
        for (std::size_t i = 0; i < patch_.blocks.size(); ++i) {
            const PatchBlock& b = patch_.blocks[i];
            const BlockAt at{b, i, previous_end};
            Placement placed = b.old_text.empty() ? locate_insertion(ctx_, at) : locate_by_match(ctx_, at, budget);
            if (placed.ok()) {
                previous_end = placed->last_line;
                located.push_back(std::move(placed.value()));
            } else {
                failures.push_back({b.index, b.patch_line, placed.error().kind, std::move(placed.error().message)});
            }
        }
        if (failures.empty()) failures = find_overlaps(ctx_.subject, patch_, located);
        if (!failures.empty()) return failure(std::move(failures));

        auto bytes = assemble(file_, patch_, located);
        if (!bytes.ok()) return whole_failure(BlockFailureKind::overlap, splice_failed_message(bytes.error()));
        FilePlan plan = base_plan();
        plan.bytes = std::move(bytes.value());
        for (const Located& l : located) {
            const PatchBlock& b = patch_.blocks[l.block];
            BlockReport r = report(b, l.match, l.first_line);
            r.similarity = l.similarity;
            plan.blocks.push_back(std::move(r));
        }
        return plan;
    }

    base::Result<FilePlan, PlanError> create() {
        // The lines as the patch gave them: a CRLF file stays CRLF, as git writes it.
        std::string content;
        for (const PatchBlock& b : patch_.blocks)
            content += b.new_text_as_given.empty() ? b.new_text : b.new_text_as_given;
        if (!patch_.blocks.empty() && patch_.blocks.back().final_newline == false && !content.empty() &&
            content.back() == '\n') {
            content.pop_back();
            if (!content.empty() && content.back() == '\r') content.pop_back();
        } else if (!patch_.blocks.empty() && patch_.blocks.back().final_newline == false && !content.empty() &&
                   content.back() == '\r') {
            content.pop_back();
        }
        if (original_ && !original_->empty()) {
            if (normalize_newlines(*original_) == normalize_newlines(content)) {
                return whole_failure(BlockFailureKind::already_applied, already_created_message(ctx_.subject));
            }
            return whole_failure(BlockFailureKind::already_exists,
                                 already_exists_message(ctx_.subject, original_->size()));
        }
        FilePlan plan = base_plan();
        plan.bytes = std::move(content);
        for (const PatchBlock& b : patch_.blocks) plan.blocks.push_back(report(b, BlockMatch::created, 1));
        return plan;
    }

    base::Result<FilePlan, PlanError> remove() {
        if (!original_) return whole_failure(BlockFailureKind::not_found, missing_for_delete_message(ctx_.subject));
        if (!patch_.blocks.empty()) {
            std::string expected;
            for (const PatchBlock& b : patch_.blocks) expected += b.old_text;
            std::string actual = normalize_newlines(original_->substr(file_.bom()));
            if (!actual.empty() && actual.back() != '\n') actual += '\n';
            if (expected != actual) {
                return whole_failure(BlockFailureKind::not_found,
                                     deleted_lines_differ_message(ctx_.subject, expected, actual));
            }
        }
        FilePlan plan = base_plan();
        for (const PatchBlock& b : patch_.blocks) plan.blocks.push_back(report(b, BlockMatch::deleted, 1));
        return plan;
    }

    FilePlan base_plan() const {
        FilePlan plan;
        plan.action = patch_.action;
        plan.path = patch_.path;
        plan.move_to = patch_.move_to;
        return plan;
    }

    static BlockReport report(const PatchBlock& b, BlockMatch match, std::size_t line) {
        BlockReport r;
        r.index = b.index;
        r.patch_line = b.patch_line;
        r.line = line;
        r.stated_line = b.start_line.value_or(0);
        r.match = match;
        return r;
    }

    static base::Result<FilePlan, PlanError> whole_failure(BlockFailureKind kind, std::string message) {
        BlockFailure f;
        f.kind = kind;
        f.message = message;
        PlanError e;
        e.message = whole_failure_message(message);
        e.failures.push_back(std::move(f));
        return base::fail(std::move(e));
    }

    base::Result<FilePlan, PlanError> failure(std::vector<BlockFailure> failures) const {
        std::sort(failures.begin(), failures.end(),
                  [](const BlockFailure& a, const BlockFailure& b) { return a.index < b.index; });
        PlanError e;
        e.message = plan_failure_message(ctx_.subject, failures, patch_.blocks.size());
        e.failures = std::move(failures);
        return base::fail(std::move(e));
    }

    std::optional<std::string_view> original_;
    const FilePatch& patch_;
    OriginalFile file_;
    PlanContext ctx_;
};

}  // namespace

base::Result<FilePlan, PlanError> plan_file_patch(std::optional<std::string_view> original, const FilePatch& file,
                                                  const PlanOptions& options) {
    Planner planner(original, file, options);
    return planner.run();
}

}  // namespace text
