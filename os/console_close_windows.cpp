// Windows implementation of os/console_close.hpp: a console control handler that turns the console
// window closing, logoff and shutdown into the owner's request to stop.
#include "os/console_close.hpp"

#include <windows.h>

#include <mutex>

namespace os {

namespace {

// The action of the living ConsoleCloseHook (empty when there is none), and the lock that the
// handler's thread and the hook's destructor share.
std::mutex console_close_lock;
std::function<void()> console_close_action;

BOOL WINAPI console_handler(DWORD event) {
    if (event != CTRL_CLOSE_EVENT && event != CTRL_LOGOFF_EVENT && event != CTRL_SHUTDOWN_EVENT) return FALSE;
    {
        const std::lock_guard lock(console_close_lock);
        if (!console_close_action) return FALSE;
        console_close_action();
    }
    // The process ends when this returns: give the server time to finish (main returns first).
    Sleep(4000);
    return TRUE;
}

}  // namespace

ConsoleCloseHook::ConsoleCloseHook(std::function<void()> request_stop) {
    {
        const std::lock_guard lock(console_close_lock);
        console_close_action = std::move(request_stop);
    }
    SetConsoleCtrlHandler(console_handler, TRUE);
}

ConsoleCloseHook::~ConsoleCloseHook() {
    SetConsoleCtrlHandler(console_handler, FALSE);
    const std::lock_guard lock(console_close_lock);
    console_close_action = nullptr;
}

}  // namespace os
