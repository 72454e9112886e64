// A failure's errno-style code in words, for the messages every part of this layer writes.
// POSIX in system_paths_posix.cpp, Windows in system_paths_windows.cpp.
#pragma once

#include <string>

namespace os {

// errno-style failure text for messages ("Permission denied").
std::string error_text(int err);

}  // namespace os
