// A change planned on bytes that are no longer the file's: merged with what changed on disk
// meanwhile when the two touch different lines (text/diff/merge3), or refused with both sides of each
// overlap so the agent can re-plan. For run_change (the file changed between planning and the
// write, e.g. while the approval form was open) and `write` (over a file changed since it was read).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/diff/merge3.hpp"

namespace text {

struct StaleMerge {
    std::string bytes;  // base with both changes
    std::string note;   // for the result: what was merged
};

// `base`: what the change was planned on; `ours`: what it would write; `theirs`: the file now.
// `display`: the file as messages name it; `since`: when theirs changed ("while this change was
// being prepared", "since this session last read it"). A failure has reason `reason` (conflict,
// or stale for a write over a file changed since it was read).
base::Result<StaleMerge> merge_stale_change(std::string_view base, std::string_view ours, std::string_view theirs,
                                            const std::string& display, const std::string& since,
                                            base::ErrorReason reason = base::ErrorReason::conflict);

// The conflicts as the model reads them: each overlap's place and both sides, bounded.
std::string conflict_report(const std::vector<text::MergeConflict>& conflicts);

}  // namespace text
