// Putting a file's located blocks together: no two may change the same bytes; then one splice in
// the file's newline style, insertions at the very end appended, and the final newline settled.
#pragma once

#include <string>
#include <vector>

#include "base/result.hpp"
#include "text/plan/plan_locate.hpp"

namespace text {

// For each block that overlaps an earlier one (in the patch), why.
std::vector<BlockFailure> find_overlaps(const PlanSubject& subject, const FilePatch& patch,
                                        const std::vector<Located>& located);

// The new content, or why the splice refused the changes.
base::Result<std::string, std::string> assemble(const OriginalFile& file, const FilePatch& patch,
                                                const std::vector<Located>& located);

}  // namespace text
