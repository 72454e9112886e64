// ShownDiff (shown_diff.hpp): the files and diffs of a change gathered for the approval form, and
// the approval request made from them.
#include "tools/pipeline/shown_diff.hpp"

#include <string_view>

#include "text/diff/elision.hpp"

namespace tools {

void ShownDiff::add(std::string path, const text::UnifiedDiff& file_diff, std::size_t old_lines) {
    if (std::string most = text::removal_headline(file_diff.removals, file_diff.additions, old_lines); !most.empty())
        removes_most.push_back(path + " " + most);
    paths.push_back(std::move(path));
    additions += file_diff.additions;
    removals += file_diff.removals;
    diff += (diff.empty() ? "" : "\n") + file_diff.text;
}

std::string ShownDiff::headline() const {
    std::string out;
    for (const auto& one : removes_most) {
        // One file shown: its path is in the rest of the line already.
        const std::string_view said =
            paths.size() == 1 ? std::string_view(one).substr(paths.front().size() + 1) : std::string_view(one);
        out += (out.empty() ? "" : "; ") + std::string(said);
    }
    return out;
}

ApprovalRequest approval_request(std::string tool, const ShownDiff& shown, std::vector<ApprovalRequest::Image> images,
                                 std::string asked_again_because) {
    ApprovalRequest ask;
    ask.tool = std::move(tool);
    ask.asked_again_because = std::move(asked_again_because);
    ask.paths = shown.paths;
    ask.additions = shown.additions;
    ask.removals = shown.removals;
    ask.headline = shown.headline();
    ask.diff = shown.diff;
    ask.images = std::move(images);
    return ask;
}

}  // namespace tools
