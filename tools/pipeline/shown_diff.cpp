// ShownDiff (shown_diff.hpp): the files and diffs of a change gathered for the approval form, and
// the approval request made from them.
#include "tools/pipeline/shown_diff.hpp"

#include <string_view>

#include "text/diff/elision.hpp"

namespace tools {

void ShownDiff::add(std::string path, const text::UnifiedDiff& file_diff, std::size_t old_lines,
                    std::string_view encoding) {
    if (std::string most = text::removal_headline(file_diff.removals, file_diff.additions, old_lines); !most.empty())
        removes_most.push_back(path + " " + most);
    if (!encoding.empty()) encodings.push_back(path + " in " + std::string(encoding));
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

std::string ShownDiff::encodings_said() const {
    if (paths.size() == 1 && encodings.size() == 1)  // its path is in the rest of the line already
        return std::string(std::string_view(encodings.front()).substr(paths.front().size() + 1));
    std::string out;
    for (const auto& one : encodings) out += (out.empty() ? "" : ", ") + one;
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
    ask.encodings = shown.encodings_said();
    ask.diff = shown.diff;
    ask.images = std::move(images);
    return ask;
}

}  // namespace tools
