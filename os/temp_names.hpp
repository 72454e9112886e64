// The names of the temp files a write stages beside its target, one definition for every platform:
// `.mcp-edit-stage-` or `.mcp-edit-backup-` and 16 lowercase hex digits from the system's random
// generator. The name does not grow with the target's (a 255-byte name still gets a temp file), and
// only a file of exactly this form is ever taken for a stale one of this program's and swept.
#pragma once

#include <string>
#include <string_view>

namespace os {

enum class TempPurpose { stage, backup };

// A fresh temp file name for `purpose` (no folder).
std::string temp_file_name(TempPurpose purpose);

// Whether `name` is exactly a staging temp file's name as temp_file_name makes it.
bool is_staging_temp_name(std::string_view name);

}  // namespace os
