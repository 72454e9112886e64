// What read tells the model (tools/handlers/read.cpp): an image too large, an offset past the end, files of
// a list that did not fit or were not read, and a call that names no file. read decides; these
// word it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "os/encoding.hpp"

namespace tools {

// `max_image`: the most one reply carries as image content ("4.0 MiB", base::mebibytes).
std::string image_too_large_message(std::string_view given, std::string_view mime, std::string_view size,
                                    std::string_view max_image);
std::string image_summary(std::string_view display, std::string_view mime, std::size_t bytes);
std::string offset_past_end_message(std::size_t offset, std::string_view path, std::size_t total_lines);
// ---- several files ----
// "Read 2 of 3 files (1 could not be read: see [not read]); ..." without its final period.
std::string read_many_summary(std::size_t read, std::size_t count, std::size_t failed, std::size_t not_fitting);
// `names`: the files that did not fit, as many as fit a line ("a.py, b.py and 3 more").
std::string not_fitting_note(std::size_t not_fitting, std::size_t budget, std::string_view names);
std::string images_fill_reply_message(std::string_view max_image, std::string_view path);
std::string read_needs_file_message();

// ---- encodings ----
// read's encoding names no encoding this server converts.
std::string unknown_encoding_message(std::string_view encoding);
// The file's bytes do not fit the encoding asked for: why (`note`), and how it reads without it (`how`).
std::string not_in_requested_encoding_message(std::string_view path, std::string_view encoding, std::string_view note,
                                              std::string_view how);
// read's encoding_note: the decision's note, and for raw bytes what the model can do.
std::string encoding_note(std::string_view note, os::EncodingSource source);

}  // namespace tools
