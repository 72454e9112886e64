// How a file the tools create is written: as the project says new files are. `.editorconfig`
// (end_of_line, insert_final_newline, trim_trailing_whitespace, charset) and, when it does not say
// the line ending, `.gitattributes`'s `eol`. The model's text is what it sent; the result says what
// was made of it, and the diff shows the text as written.
#pragma once

#include <string>
#include <vector>

#include "base/result.hpp"
#include "os/workspace.hpp"

namespace tools {

struct NewFile {
    std::string text;                // the text as it will be written (UTF-8): what the diff shows
    std::string bytes;               // the bytes written: `text` in the charset asked for, with its BOM
    std::vector<std::string> notes;  // what was made of the model's text, and why ("" when nothing)
};

// `text` (UTF-8, as the model sent it) shaped for a new file at `path`; refused when the charset
// asked for cannot hold a character of it (the message names the character and its line).
base::Result<NewFile> shape_new_file(const os::ResolvedPath& path, std::string text);

}  // namespace tools
