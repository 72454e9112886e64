// POSIX side of os/console_close.hpp: nothing to hook (SIGTERM ends the session there).
#include "os/console_close.hpp"

namespace os {

ConsoleCloseHook::ConsoleCloseHook(std::function<void()>) {}
ConsoleCloseHook::~ConsoleCloseHook() = default;

}  // namespace os
