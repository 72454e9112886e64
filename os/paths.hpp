// The one place that splits a '/'-separated path into its folder and its last name, so every layer
// agrees on "." for a bare name and on the file system's root ("/", "C:/") as a top file's folder;
// and that cuts a root off a path inside it.
#pragma once

#include <string>
#include <string_view>

namespace os {

// The folder holding `path`: "." when it holds no '/', the file system's root for a name just
// below it ("/a" -> "/", "C:/a" -> "C:/"), and a root itself for a root.
std::string parent_of(std::string_view path);

// The last name of `path` (all of it when it holds no '/'), as a view into `path`.
std::string_view name_of(std::string_view path);

// `real` relative to `root` ("" for the root itself); `real` is `root` or a path inside it.
std::string relative_to_root(const std::string& root, const std::string& real);

// Is `path` `root` or below it? Both are real paths; names compare as the file system compares
// them (case-insensitively on Windows).
bool is_within(const std::string& path, const std::string& root);

// `base` and `rest` joined by one '/' (`base` itself when `rest` is empty).
std::string join_path(const std::string& base, const std::string& rest);

}  // namespace os
