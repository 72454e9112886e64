// The end of a console session (Windows: the console window closed, logoff, shutdown) turned into
// a request to stop. POSIX in console_close_posix.cpp (nothing to do), Windows in
// console_close_windows.cpp.
#pragma once

#include <functional>

namespace os {

// Windows: while this lives, a console close, logoff or shutdown event calls `request_stop` (on
// another thread); the process then has a few seconds to finish. Its destruction unhooks the call
// (waiting for one under way), so what `request_stop` refers to may die after it, never before:
// a hook kept to the end of the process would run its captures' destructors among the static
// ones, after main's objects are gone. Elsewhere it does nothing: SIGTERM covers it.
class ConsoleCloseHook {
public:
    explicit ConsoleCloseHook(std::function<void()> request_stop);
    ~ConsoleCloseHook();
    ConsoleCloseHook(const ConsoleCloseHook&) = delete;
    ConsoleCloseHook& operator=(const ConsoleCloseHook&) = delete;
};

}  // namespace os
