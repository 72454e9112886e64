// What the patch-planning tests share: a patch parsed and one of its files planned against given
// bytes, its outcome kept as plain values, and the small builders of patches and files they use.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/patch/patch_detect.hpp"
#include "text/plan/patch_plan.hpp"

namespace test_text {

struct Outcome {
    std::string bytes;
    std::string error;  // "" on success
    std::vector<text::BlockFailure> failures;
    std::vector<text::BlockReport> blocks;
    text::FileAction action = text::FileAction::update;
    std::optional<std::string> move_to;
};

// Parses `patch` and plans its file number `which` against `file` (nullopt: the file does not exist).
inline Outcome plan_and_apply(std::string_view patch, std::optional<std::string_view> file, double fuzzy = 1.0,
                              std::size_t which = 0) {
    Outcome out;
    auto parsed = text::parse_patch(patch);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error().message);
    REQUIRE(which < parsed->files.size());
    text::PlanOptions options;
    options.format = parsed->format;
    options.display_path = "f.txt";
    options.fuzzy_threshold = fuzzy;
    auto plan = text::plan_file_patch(file, parsed->files[which], options);
    if (!plan.ok()) {
        out.error = plan.error().message;
        out.failures = plan.error().failures;
        return out;
    }
    out.bytes = plan->bytes;
    out.blocks = plan->blocks;
    out.action = plan->action;
    out.move_to = plan->move_to;
    return out;
}

inline std::string sr(std::string_view search, std::string_view replace, std::string_view header = "") {
    return "<<<<<<< SEARCH\n" + std::string(header) + "-------\n" + std::string(search) + "=======\n" +
           std::string(replace) + ">>>>>>> REPLACE\n";
}

inline std::string numbered(std::size_t n, std::string_view word = "line") {
    std::string s;
    for (std::size_t i = 1; i <= n; ++i) s += std::string(word) + std::to_string(i) + "\n";
    return s;
}

}  // namespace test_text
