// The .editorconfig properties that apply to a file, as EditorConfig's own C core (Debian's
// libeditorconfig) reads them: the .editorconfig files from the file's folder up to one that says
// `root = true`, sections matched by EditorConfig's globs, later and deeper ones winning. The
// tools use four: `charset` (the encoding a file without a BOM or declaration is taken in, and a
// new file is written in), `end_of_line`, `insert_final_newline` and `trim_trailing_whitespace`
// (how a new file's text is written).
//
// The library opens the files by name. So that a hostile tree cannot make it block or read
// without bound, every .editorconfig on the way up is looked at first: one that is not a regular
// file (a FIFO, a device), or is over max_file_size, and nothing is taken from .editorconfig files
// for that path (logged once per call at debug).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace os {

struct EditorConfig {
    std::string charset;      // "latin1", "utf-8", "utf-8-bom", "utf-16le", "utf-16be", or "" (not set)
    std::string end_of_line;  // "lf", "crlf", "cr", or ""
    std::optional<bool> insert_final_newline;
    std::optional<bool> trim_trailing_whitespace;

    bool empty() const {
        return charset.empty() && end_of_line.empty() && !insert_final_newline && !trim_trailing_whitespace;
    }
};

// Largest .editorconfig read (EditorConfig files are a few hundred bytes).
inline constexpr std::uint64_t max_editorconfig_size = 1u << 20;

// The properties for the file at `real_path` (absolute; it need not exist). Values are lower-cased;
// ones the spec does not allow (and `unset`) are left out.
EditorConfig editorconfig_for(const std::string& real_path);

// `real_path` as the library takes it on this system, for editorconfig_for: unchanged on POSIX
// (editorconfig_posix.cpp); on Windows (editorconfig_windows.cpp) in the ANSI code page, which its
// fopen speaks, with backslashes, which its test of an absolute path (PathIsRelative) needs for
// //server/share paths; nullopt when the code page cannot spell the path.
std::optional<std::string> editorconfig_library_path(const std::string& real_path);

}  // namespace os
