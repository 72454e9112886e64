// Paths as this system spells and resolves them: absolute or not, the file system's root, names
// compared as the file system compares them, real paths, the working directory, the user's home and
// this executable. POSIX in system_paths_posix.cpp, Windows in system_paths_windows.cpp.
//
// Paths are UTF-8 everywhere above this layer, with `/` as the separator: on Windows a real path
// reads "C:/dir/file.txt" or "//server/share/dir/file.txt" (the implementation speaks UTF-16 and
// `\\?\` long paths to the system).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace os {

// Absolute on this system: /x on POSIX; C:/x, C:\x, //server/share/x, \\server\share\x or \\?\C:\x on Windows.
bool is_absolute(std::string_view path);
// `path` in the form this layer returns: on Windows `\` becomes `/` and a `\\?\` or `\\?\UNC\`
// prefix is removed; unchanged on POSIX.
std::string normalize_separators(std::string path);
// The part of an absolute path that has no parent: "/" on POSIX; "C:/" or "//server/share/" on
// Windows; "" when `path` is not absolute.
std::string filesystem_root(std::string_view path);
// Whether two real paths name the same place as the file system compares names: byte for byte on
// POSIX, case-insensitively on Windows (as NTFS does, through the system's own upper-casing).
bool same_path(std::string_view a, std::string_view b);

// The user's home directory ($HOME, else the password database); nullopt when neither names an
// absolute path.
std::optional<std::string> home_directory();

// realpath(3): the absolute path with every symlink, `.` and `..` resolved; nullopt (with errno
// in *err) when it does not exist or cannot be resolved.
std::optional<std::string> real_path(const std::string& path, int* err = nullptr);

// The working directory of this process.
std::string current_directory();

// The absolute path of this running executable, in the system's own spelling (backslashes on
// Windows): what a host's configuration must name to start it.
std::optional<std::string> executable_path();

}  // namespace os
