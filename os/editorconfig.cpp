// editorconfig_for: libeditorconfig's parse, after a look at the files it will open.
#include "os/editorconfig.hpp"

#include <editorconfig/editorconfig.h>

#include <memory>
#include <string_view>

#include "base/ascii.hpp"
#include "base/log.hpp"
#include "os/file_status.hpp"
#include "os/paths.hpp"

namespace os {

namespace {

// Whether every .editorconfig from `real_path`'s folder up is absent or a regular file of a sane
// size: the library would block on a FIFO, and read a device without end.
bool safe_to_parse(const std::string& real_path) {
    std::string folder = parent_of(real_path);
    for (int depth = 0; depth < 256; ++depth) {
        // A root ("/", "C:/", "//server/share/") ends in its separator already.
        const std::string candidate = folder + (folder.ends_with('/') ? "" : "/") + ".editorconfig";
        const FileStat st = stat_path(candidate);
        if (st.kind != FileKind::missing && (st.kind != FileKind::regular || st.size > max_editorconfig_size)) {
            base::log::debug("{} is not a regular file of at most 1 MiB: .editorconfig not applied to {}", candidate,
                             real_path);
            return false;
        }
        const std::string up = parent_of(folder);
        if (up.empty() || up == folder) return true;
        folder = up;
    }
    return true;
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = base::ascii_lower(c);
    return out;
}

std::optional<bool> boolean(std::string_view value) {
    if (value == "true") return true;
    if (value == "false") return false;
    return std::nullopt;
}

}  // namespace

EditorConfig editorconfig_for(const std::string& real_path) {
    EditorConfig out;
    const bool absolute = real_path.starts_with('/') || (real_path.size() > 2 && real_path[1] == ':');
    if (!absolute || !safe_to_parse(real_path)) return out;
    const std::unique_ptr<std::remove_pointer_t<editorconfig_handle>, int (*)(editorconfig_handle)> handle(
        editorconfig_handle_init(), editorconfig_handle_destroy);
    if (!handle) return out;
    const std::optional<std::string> library_path = editorconfig_library_path(real_path);
    if (!library_path) {
        base::log::debug(".editorconfig not applied to {}: the system's code page cannot spell its path", real_path);
        return out;
    }
    if (const int error = editorconfig_parse(library_path->c_str(), handle.get()); error != 0) {
        base::log::debug(".editorconfig not applied to {}: {}", real_path, editorconfig_get_error_msg(error));
        return out;
    }
    const int count = editorconfig_handle_get_name_value_count(handle.get());
    for (int i = 0; i < count; ++i) {
        const char* name_c = nullptr;
        const char* value_c = nullptr;
        editorconfig_handle_get_name_value(handle.get(), i, &name_c, &value_c);
        if (!name_c || !value_c) continue;
        const std::string name = lower(name_c);
        const std::string value = lower(value_c);
        if (name == "charset") {
            if (value == "latin1" || value == "utf-8" || value == "utf-8-bom" || value == "utf-16le" ||
                value == "utf-16be")
                out.charset = value;
        } else if (name == "end_of_line") {
            if (value == "lf" || value == "crlf" || value == "cr") out.end_of_line = value;
        } else if (name == "insert_final_newline") {
            out.insert_final_newline = boolean(value);
        } else if (name == "trim_trailing_whitespace") {
            out.trim_trailing_whitespace = boolean(value);
        }
    }
    return out;
}

}  // namespace os
