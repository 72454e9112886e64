// POSIX implementation of os/system_paths.hpp and os/error_text.hpp: `/` paths compared byte for
// byte, realpath(3), $HOME or the password database, getcwd, /proc/self/exe (macOS: dyld).
#include "os/system_paths.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <pwd.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include "os/confinement_posix.hpp"
#include "os/error_text.hpp"

namespace os {

bool is_absolute(std::string_view path) { return !path.empty() && path[0] == '/'; }

std::string normalize_separators(std::string path) { return path; }

std::string filesystem_root(std::string_view path) { return is_absolute(path) ? "/" : ""; }

bool same_path(std::string_view a, std::string_view b) { return a == b; }

std::string error_text(int err) { return std::strerror(err); }

std::optional<std::string> home_directory() {
    if (const char* home = std::getenv("HOME"); home && home[0] == '/') return std::string(home);
    char buffer[4096];
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(getuid(), &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_dir &&
        found->pw_dir[0] == '/')
        return std::string(found->pw_dir);
    return std::nullopt;
}

std::optional<std::string> real_path(const std::string& path, int* err) {
    if (posix::already_real(path)) return path;
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved) {
        if (err) *err = errno;
        return std::nullopt;
    }
    std::string out(resolved);
    std::free(resolved);
    return out;
}

std::string current_directory() {
    char buf[PATH_MAX];
    if (!::getcwd(buf, sizeof buf)) return "/";
    return buf;
}

std::optional<std::string> executable_path() {
#ifdef __APPLE__
    std::uint32_t size = 0;
    _NSGetExecutablePath(nullptr, &size);
    std::string path(size, '\0');
    if (_NSGetExecutablePath(path.data(), &size) != 0) return std::nullopt;
    path.resize(std::strlen(path.c_str()));
    return real_path(path);
#else
    return real_path("/proc/self/exe");
#endif
}

}  // namespace os
