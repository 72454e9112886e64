// What the file boundary tells the model (tools/pipeline/file_access.cpp): a file refused as ignored, or
// not found, not a regular file, too large, unreadable, not text. The boundary decides; these word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tools {

// ---- ignored files ----
std::string inside_git_directory_message(std::string_view display, std::string_view git_folder);
std::string ignore_file_message(std::string_view display);
// `inside`: the ignored folder it is in ("" when the rule names the file itself); `write`: a change, else a read.
std::string ignored_by_rule_message(std::string_view display, std::string_view inside, std::string_view rule,
                                    std::string_view rule_file, std::size_t line, bool write);

// ---- loading ----
std::string file_not_found_message(std::string_view path, std::string_view real);
std::string file_vanished_message(std::string_view path);
std::string directory_not_file_message(std::string_view path);
// `kind`: what it is instead ("a FIFO", "a socket", ...).
std::string not_regular_file_message(std::string_view path, std::string_view kind);
std::string file_too_large_message(std::string_view path, std::string_view size, std::string_view limit);
std::string cannot_read_message(std::string_view path, std::string_view detail);
// `links`: how many names the file has (more than one).
std::string hard_links_under_ignore_reads_message(std::string_view path, std::size_t links);
// `encoding`: the byte-order mark's ("utf-32le", ...); `why`: the decision's note ("UTF-32 files are
// not supported", or why the text after a UTF-16 BOM is not UTF-16).
std::string unsupported_encoding_message(std::string_view path, std::string_view encoding, std::string_view why);
std::string binary_file_message(std::string_view path, std::size_t nul_offset);
// New text that the file's encoding cannot hold. `how`: the encoding and how it was decided ("gbk
// (detected, confidence 0.96)"); `what`: os::encode's message ("line 3: '€' (U+20AC) cannot be written in gbk").
std::string cannot_encode_message(std::string_view path, std::string_view how, std::string_view what);

}  // namespace tools
