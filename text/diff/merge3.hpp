// A line-level three-way merge: the change from `base` to `ours` and the change from `base` to
// `theirs`, combined when they touch different lines of `base`. Lines are compared and kept with
// their terminators, so the merged bytes are exact. Used when a file changed on disk between
// planning a change and writing it (and by `write` over a file changed since it was read).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace text {

// Where both sides changed the same lines of base differently.
struct MergeConflict {
    std::size_t base_first = 0;    // 1-based lines of base the two changes overlap on
    std::size_t base_count = 0;    //   (0: both insert at base_first)
    std::size_t theirs_first = 0;  // 1-based line of `theirs` where its side of it starts
    std::string base_text;         // base's lines there
    std::string ours_text;         // what ours made of them
    std::string theirs_text;       // what theirs made of them
    bool unaligned = false;        // not an overlap: repeated lines let theirs' change land in
                                   //   more than one place relative to ours (the region around both)
};

struct MergeResult {
    bool clean = true;
    std::string merged;  // clean: base with both changes; otherwise empty
    std::vector<MergeConflict> conflicts;
    std::size_t ours_hunks = 0;    // changed regions of ours (relative to base)
    std::size_t theirs_hunks = 0;  // and of theirs
};

// Changes that replace the same lines with the same text merge as one. Changes that are only
// adjacent (one ends where the other starts) merge; an insertion at the edge of, or inside, the
// other side's changed lines is a conflict, as are overlapping lines. A merge whose result depends
// on which of several repeated lines the diff pairs up is a conflict too (never a guess).
MergeResult merge3(std::string_view base, std::string_view ours, std::string_view theirs);

}  // namespace text
