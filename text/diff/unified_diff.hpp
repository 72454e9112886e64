// The unified diff every mutating tool shows: computed on the window around the change only, so
// its cost follows the change and not the file; the text is capped. The contract's format.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "text/bytes/spliced_bytes.hpp"

namespace text {

struct DiffOptions {
    std::string_view old_path = {};     // shown as "a/PATH" (a leading "/" is dropped)
    std::string_view new_path = {};     // shown as "b/PATH"; empty = old_path (set it for a move)
    bool old_missing = false;           // creation: "--- /dev/null", "@@ -0,0 +1,N @@"
    bool new_missing = false;           // deletion: "+++ /dev/null"
    std::size_t context = 3;            // lines of context around each change
    std::size_t max_bytes = 64 * 1024;  // cap on the text; 0 = no cap
    // Each line's own bytes, its CR kept before the LF (and invalid UTF-8 and long lines as they
    // are): a patch that `git apply` takes, not a view for a reader. The session patch.
    bool exact_lines = false;
};

struct UnifiedDiff {
    std::string text;                    // "" when nothing changed (and nothing was created or deleted)
    std::size_t additions = 0;           // "+" lines, all of them even when the text is cut
    std::size_t removals = 0;            // "-" lines
    std::size_t first_changed_line = 0;  // 1-based, in the new text; 0 when nothing changed
    std::size_t hunks = 0;
    bool truncated = false;  // the text was cut at max_bytes; its last line says how much
};

// Lines are compared with their terminators (so a CRLF -> LF change shows) and shown without
// them; a line without a final newline is followed by "\ No newline at end of file"; invalid UTF-8
// is shown as U+FFFD (the text only: the files are never touched). When either side holds a NUL
// byte (binary, as git judges it), the text is git's one line instead, "Binary files a/OLD and
// b/NEW differ" (/dev/null for a missing side), with no "+"/"-" lines counted.
UnifiedDiff unified_diff(std::string_view old_bytes, std::string_view new_bytes, const DiffOptions& options);
// The same diff for new bytes kept as `change` over `old_bytes`: only the lines around the span it
// replaces are read (and both sides whole for a NUL byte), so a big file is never copied.
UnifiedDiff unified_diff(std::string_view old_bytes, const SplicedBytes& change, const DiffOptions& options);

}  // namespace text
