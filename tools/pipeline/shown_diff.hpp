// What the user is shown of a change before approving it: the files' paths, the diff over all of
// them and its counts, and the approval request made from that (the one place one is made).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/diff/unified_diff.hpp"
#include "tools/pipeline/approval.hpp"

namespace tools {

// What the approval form shows of a change: the files as shown (relative to the root) and the
// diff over all of them.
struct ShownDiff {
    std::vector<std::string> paths;
    std::size_t additions = 0;
    std::size_t removals = 0;
    std::string diff;
    // Per file that loses most of its lines: "removes 412 of 480 lines" (text::removal_headline),
    // with the file's path when the change shows several files.
    std::vector<std::string> removes_most;
    // Per file written in an encoding other than UTF-8 (its diff is shown as UTF-8 text): the
    // encoding, with the file's path when the change shows several files: "gbk", "b.txt in utf-16le".
    std::vector<std::string> encodings;

    // One more file and its diff (the diffs are shown one after the other); `old_lines`: how many
    // lines the file had (0 for a new file), for removes_most; `encoding`: the file's, when it is
    // written in another than UTF-8 ("" when not: see LoadedFile::written_encoding).
    void add(std::string path, const text::UnifiedDiff& file_diff, std::size_t old_lines = 0,
             std::string_view encoding = {});
    // What the form's and the view's title say first: removes_most joined ("" for most changes).
    std::string headline() const;
    // The encodings joined: "in gbk" for one file, "a.py in gbk, b.txt in utf-16le"; "" for UTF-8 files.
    std::string encodings_said() const;
};

// The one place an approval request is made: `tool` asks for what `shown` shows, binding
// `images` (each file's bytes before and after); `asked_again_because` says why the same change
// is asked a second time ("" the first time).
ApprovalRequest approval_request(std::string tool, const ShownDiff& shown,
                                 std::vector<ApprovalRequest::Image> images = {}, std::string asked_again_because = {});

}  // namespace tools
