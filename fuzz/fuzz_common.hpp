// What the apply_diff fuzz targets share: splitting an input into patch and file, checking the
// patch model's invariants, and planning every file. Four targets, one set of checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "text/file_facts.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_model.hpp"
#include "text/patch_plan.hpp"
#include "base/result.hpp"

namespace fuzz {

// A failed invariant: abort, so that libFuzzer keeps the input.
inline void require(bool condition) {
    if (!condition) std::abort();
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
        for (const std::optional<std::string_view> original : {std::optional<std::string_view>(file),
                                                              std::optional<std::string_view>()}) {
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
                require(plan->bytes == content || plan->bytes + "\n" == content ||
                        plan->bytes + "\r\n" == content || plan->bytes + "\r" == content);
            }
        }
    }
}

// One parser's target: read the patch, check the model, plan every file, and ask the detector
// (which agrees or says no; it never crashes). The last byte of the input chooses exact matching or
// a similarity threshold.
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
    (void)text::detect_patch_format(input.patch);
    return 0;
}

}  // namespace fuzz
