// What the apply_diff fuzz targets share: splitting an input into patch and file, checking the
// patch model's invariants, and planning every file. Four targets, one set of checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "text/bytes/file_facts.hpp"
#include "text/patch/patch_detect.hpp"
#include "text/patch/patch_model.hpp"
#include "text/plan/patch_plan.hpp"
#include "base/result.hpp"

namespace fuzz {

// A failed invariant: abort, so that libFuzzer keeps the input (saying which, when `why` is given).
inline void require(bool condition, const char* why = nullptr) {
    if (condition) return;
    if (why) std::fprintf(stderr, "fuzz: %s\n", why);
    std::abort();
}

// An input is the patch, then optionally "\0\0" and the bytes of the file it is applied to.
struct Input {
    std::string_view patch;
    std::string_view file;
};

inline Input split(const std::uint8_t* data, std::size_t size) {
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    const std::size_t cut = all.find(std::string_view("\0\0", 2));
    if (cut == std::string_view::npos) return {all, "alpha\nbeta\ngamma\n  delta\nbeta\n"};
    return {all.substr(0, cut), all.substr(cut + 2)};
}

// The model's promises: indices 1..block_count, patch lines inside the patch, whole lines.
inline void check_patch(const text::Patch& patch, std::string_view text) {
    std::size_t lines = 1;
    for (const char c : text) lines += (c == '\n' || c == '\r') ? 1 : 0;
    std::size_t blocks = 0;
    for (const text::FilePatch& f : patch.files) {
        require(f.patch_line <= lines);
        for (const text::PatchBlock& b : f.blocks) {
            ++blocks;
            require(b.index >= 1 && b.index <= patch.block_count);
            require(b.patch_line >= 1 && b.patch_line <= lines);
            require(b.old_text.empty() || b.old_text.back() == '\n');
            require(b.new_text.empty() || b.new_text.back() == '\n');
        }
    }
    require(blocks == patch.block_count);
    require(!patch.files.empty());
}

// Plans every file of `patch` against `file` (and as a missing file) and checks the results.
inline void plan_all(const text::Patch& patch, std::string_view file, double fuzzy_threshold) {
    text::PlanOptions options;
    options.format = patch.format;
    options.display_path = "fuzz.txt";
    options.fuzzy_threshold = fuzzy_threshold;
    options.fuzzy_budget = 200000;
    std::size_t bom = 0;
    text::detect_bom(file, &bom);
    for (const text::FilePatch& f : patch.files) {
        for (const std::optional<std::string_view> original :
             {std::optional<std::string_view>(file), std::optional<std::string_view>()}) {
            auto plan = text::plan_file_patch(original, f, options);
            if (!plan.ok()) {
                require(!plan.error().message.empty());
                require(!plan.error().failures.empty());
                continue;
            }
            require(plan->action == f.action);
            if (f.action == text::FileAction::remove) require(plan->bytes.empty());
            if (f.action == text::FileAction::update) {
                require(original.has_value());
                // The BOM stays, and the blocks are reported in order.
                require(plan->bytes.substr(0, bom) == file.substr(0, bom));
                require(plan->blocks.size() == f.blocks.size());
                for (const text::BlockReport& r : plan->blocks) {
                    require(r.similarity > 0.0 && r.similarity <= 1.0);
                    require(r.line >= 1);
                }
            }
            if (f.action == text::FileAction::create) {
                // The lines as the patch gave them ("\r\n" kept), less at most the last line break.
                std::string content;
                for (const text::PatchBlock& b : f.blocks) {
                    content += b.new_text_as_given.empty() ? b.new_text : b.new_text_as_given;
                }
                require(plan->bytes == content || plan->bytes + "\n" == content || plan->bytes + "\r\n" == content ||
                        plan->bytes + "\r" == content);
            }
        }
    }
}

// Whether two readings of a patch are the same model (the fields every parser fills).
inline bool same_patch(const text::Patch& a, const text::Patch& b) {
    if (a.format != b.format || a.block_count != b.block_count || a.files.size() != b.files.size()) return false;
    for (std::size_t i = 0; i < a.files.size(); ++i) {
        const text::FilePatch& fa = a.files[i];
        const text::FilePatch& fb = b.files[i];
        if (fa.action != fb.action || fa.path != fb.path || fa.move_to != fb.move_to ||
            fa.patch_line != fb.patch_line || fa.blocks.size() != fb.blocks.size())
            return false;
        for (std::size_t j = 0; j < fa.blocks.size(); ++j) {
            const text::PatchBlock& x = fa.blocks[j];
            const text::PatchBlock& y = fb.blocks[j];
            if (x.index != y.index || x.patch_line != y.patch_line || x.old_text != y.old_text ||
                x.new_text != y.new_text || x.start_line != y.start_line || x.ops != y.ops ||
                x.new_text_as_given != y.new_text_as_given)
                return false;
        }
    }
    return true;
}

// The detector as apply_diff uses it (text::parse_patch: detect, then that format's parser), held
// against what this target's parser read. A patch the detector gives this parser is read by
// apply_diff exactly as this parser read it; one it gives another format is read as that format
// (never refused with the detector's error); one it calls no format is refused with its message.
// (The detector may give a patch this parser reads to another format: the first distinctive line
// decides, and a parser may skip lines before its own.)
inline void check_detector(const text::Patch& read, std::string_view patch) {
    const auto detected = text::detect_patch_format(patch);
    const auto via_apply_diff = text::parse_patch(patch);
    if (!detected.ok()) {
        require(!detected.error().message.empty(), "the detector refused the patch with no message");
        require(!via_apply_diff.ok() && via_apply_diff.error().message == detected.error().message,
                "the detector found no format, but parse_patch did not refuse the patch with the detector's message");
        return;
    }
    if (detected.value() == read.format) {
        require(via_apply_diff.ok(), "the detector named this parser's format, but parse_patch refused the patch");
        require(same_patch(via_apply_diff.value(), read),
                "the detector named this parser's format, but parse_patch read the patch otherwise than the parser");
    } else if (via_apply_diff.ok()) {
        require(via_apply_diff.value().format == detected.value(),
                "parse_patch read the patch in another format than the detector named");
    }
}

// One parser's target: read the patch, check the model, plan every file, and hold the detector
// against the reading (check_detector). The last byte of the input chooses exact matching or a
// similarity threshold.
template <class Parse>
int run_parser_target(const std::uint8_t* data, std::size_t size, Parse&& parse) {
    const Input input = split(data, size);
    auto patch = parse(input.patch);
    if (!patch.ok()) {
        require(!patch.error().message.empty());
        return 0;
    }
    check_patch(patch.value(), input.patch);
    const double threshold = size > 0 && (data[size - 1] & 1) ? 0.5 + (data[size - 1] % 50) / 100.0 : 1.0;
    plan_all(patch.value(), input.file, threshold);
    check_detector(patch.value(), input.patch);
    return 0;
}

}  // namespace fuzz
