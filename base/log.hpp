// The log every layer writes to: levels, fmt-style messages and where records go, in front of
// spdlog, whose headers (header-only in the portable and cross builds) only base/log.cpp compiles.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/core.h>

namespace base::log {

// spdlog's levels, in its order.
enum class Level { trace, debug, info, warn, error, critical, off };

// Whether a record at `level` goes anywhere (formatting is skipped when not).
bool enabled(Level level);
// Formats and writes one record; never throws.
void write(Level level, fmt::string_view format, fmt::format_args args);

template <typename... Args>
void message(Level level, fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(level)) write(level, format, fmt::make_format_args(args...));
}
template <typename... Args>
void trace(fmt::format_string<Args...> format, Args&&... args) {
    message(Level::trace, format, std::forward<Args>(args)...);
}
template <typename... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
    message(Level::debug, format, std::forward<Args>(args)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
    message(Level::info, format, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
    message(Level::warn, format, std::forward<Args>(args)...);
}
template <typename... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
    message(Level::error, format, std::forward<Args>(args)...);
}

// Sends records to stderr, or to `file` (appended) when it is not empty, at `level` and above, as
// "2026-01-02T03:04:05.678 warning text". Returns false with the reason when the file cannot be opened.
bool to_stderr_or_file(Level level, const std::string& file, std::string& error);

// Records at `level` and above also go to `forward` (logger name, level, text), on the thread that
// logs. Another call adds another; nothing removes one.
using Forward = std::function<void(Level, std::string_view logger, std::string_view text)>;
void also_forward(Level level, Forward forward);

// The lowest level any destination takes (records below it are not even formatted).
void set_level(Level level);

// Writes out what destinations buffer.
void flush();

}  // namespace base::log
