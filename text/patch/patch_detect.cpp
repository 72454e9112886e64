// Format detection by the first distinctive line, and the dispatch to the format's parser.
// The scan stops at the first such line, so its cost is bounded by the patch's length.
#include "text/patch/patch_detect.hpp"

#include <string>

#include "text/patch/patch_apply_patch.hpp"
#include "text/patch/patch_search_replace.hpp"
#include "text/patch/patch_text.hpp"
#include "text/patch/patch_unified.hpp"

namespace text {

base::Result<PatchFormat, PatchError> detect_patch_format(std::string_view patch) {
    const PatchText text(patch);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::string_view line = text.line(i);
        const std::string_view t = trim_right(line);
        if (t == "<<<<<<< SEARCH" || t == "<<<<<<< SEARCH>") return PatchFormat::search_replace;
        if (t == "*** Begin Patch" || line.starts_with("*** Update File:") || line.starts_with("*** Add File:") ||
            line.starts_with("*** Delete File:")) {
            return PatchFormat::apply_patch;
        }
        const bool bare_hunk = (t == "@@" || line.starts_with("@@ ")) && i + 1 < text.size() &&
                               !text.line(i + 1).empty() &&
                               (text.line(i + 1)[0] == ' ' || text.line(i + 1)[0] == '-' || text.line(i + 1)[0] == '+');
        if (line.starts_with("diff --git ") || line.starts_with("@@ -") || bare_hunk ||
            (line.starts_with("--- ") && i + 1 < text.size() && text.line(i + 1).starts_with("+++ "))) {
            return PatchFormat::unified;
        }
    }
    PatchError e;
    e.message = std::string(patch.empty() ? "The diff is empty" : "The diff is in no format apply_diff knows") +
                ". Nothing was changed. Send one of these:\n"
                "1. SEARCH/REPLACE blocks (the file is given by file_path):\n"
                "<<<<<<< SEARCH\n"
                ":start_line:LINE\n"
                "-------\n"
                "[the exact lines to find]\n"
                "=======\n"
                "[the lines to put in their place]\n"
                ">>>>>>> REPLACE\n"
                "2. A unified diff:\n"
                "--- a/PATH\n"
                "+++ b/PATH\n"
                "@@ -OLD_START,OLD_COUNT +NEW_START,NEW_COUNT @@\n"
                " context\n"
                "-removed\n"
                "+added\n"
                "3. An apply_patch envelope:\n"
                "*** Begin Patch\n"
                "*** Update File: PATH\n"
                "@@ optional anchor line\n"
                " context\n"
                "-removed\n"
                "+added\n"
                "*** End Patch";
    return base::fail(std::move(e));
}

base::Result<Patch, PatchError> parse_patch(std::string_view patch) {
    auto format = detect_patch_format(patch);
    if (!format.ok()) return base::fail(std::move(format.error()));
    switch (format.value()) {
        case PatchFormat::search_replace: return parse_search_replace(patch);
        case PatchFormat::unified: return parse_unified_diff(patch);
        case PatchFormat::apply_patch: return parse_apply_patch(patch);
    }
    return parse_search_replace(patch);
}

}  // namespace text
