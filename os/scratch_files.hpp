// Private scratch files: a folder only this user can enter in the system's temp directory, files
// in it only this user can read (what a post-write check or a language server works on), removed
// again. POSIX in scratch_files_posix.cpp, Windows in scratch_files_windows.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace os {

// A new directory only this user can enter (mode 0700), in the system's temp directory, named
// `prefix` plus a random suffix; nullopt when none can be made.
std::optional<std::string> make_private_directory(const std::string& prefix);
// Creates `path` (which must not exist) readable by this user only (0600) and writes `bytes`.
bool write_private_file(const std::string& path, std::string_view bytes);
// Removes an empty directory; false when it cannot.
bool remove_directory(const std::string& path);
// Removes a directory made by make_private_directory and whatever a check left in it.
bool remove_private_directory(const std::string& path);

}  // namespace os
