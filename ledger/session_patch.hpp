// The session's changes as diffs: each changed file's base (before this session's first change)
// against its bytes now, and all of them as one patch. What `mcp-edit://session/patch`, the
// per-file resources and the `changes` tool serve; also their URIs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "os/workspace.hpp"
#include "ledger/session_changes.hpp"

namespace ledger {

inline constexpr std::string_view session_patch_uri = "mcp-edit://session/patch";
inline constexpr std::string_view session_file_uri_prefix = "mcp-edit://session/file/";
inline constexpr std::string_view diff_mime_type = "text/x-diff";

// "mcp-edit://session/file/" + the real path, percent-encoded (its `/` kept, the leading one dropped).
std::string session_file_uri(std::string_view real_path);

// The header git writes for a file moved unchanged: `diff --git a/FROM b/TO`, `similarity index
// 100%`, `rename from FROM`, `rename to TO` (paths as displayed, a leading "/" dropped).
std::string rename_header(std::string_view from_display, std::string_view to_display);

struct FileDiff {
    std::string real_path;
    std::string display;      // as the workspace shows it
    std::string uri;          // session_file_uri
    std::size_t changes = 0;  // writes by this session
    bool created = false;     // did not exist before the session's first change
    bool deleted = false;     // does not exist now
    std::size_t additions = 0;
    std::size_t removals = 0;
    std::string diff;  // "" when the file is as it was (changed back, or undone)
    std::string note;  // why there is no diff when there should be one ("" otherwise)
    // A rename: this created file holds exactly the bytes a file deleted in this session had (a
    // move); the deleted file's real path. Its diff is then git's rename header, and the deleted
    // file's diff is empty (`renamed_to` names where it went).
    std::optional<std::string> renamed_from;
    std::optional<std::string> renamed_to;
    std::string content;  // created now / deleted base: the fingerprint of those bytes, to pair renames ("" otherwise)
};

inline constexpr std::uint64_t max_diff_bytes_per_file = 8u << 20;

// One file's diff now (reads the file: call off the io thread).
// `withhold_linked` (--ignore-reads): a file that has other names (hard links) now is not shown,
// since one of them may be an ignored file.
FileDiff diff_now(const SessionChanges::File& file, const os::Workspace& workspace, std::uint64_t max_file_size,
                  bool withhold_linked);

struct SessionPatch {
    std::vector<FileDiff> files;
    std::string text;  // every file's diff, in the order first changed; notes as `# ` lines
    std::size_t additions = 0;
    std::size_t removals = 0;
    std::size_t files_differing = 0;
};

SessionPatch session_patch(const std::vector<SessionChanges::File>& files, const os::Workspace& workspace,
                           std::uint64_t max_file_size, bool withhold_linked);

}  // namespace ledger
