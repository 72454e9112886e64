// editorconfig_library_path on POSIX: libeditorconfig opens the real path's bytes as they are.
#include "os/editorconfig.hpp"

namespace os {

std::optional<std::string> editorconfig_library_path(const std::string& real_path) { return real_path; }

}  // namespace os
