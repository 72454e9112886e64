// POSIX implementation of os/scratch_files.hpp: mkdtemp in $TMPDIR (or /tmp), files created
// O_EXCL with mode 0600, removed again.
#include "os/scratch_files.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace os {

std::optional<std::string> make_private_directory(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (!::mkdtemp(pattern.data())) return std::nullopt;  // mkdtemp makes it 0700
    return pattern;
}

bool write_private_file(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return false;
    bool ok = true;
    for (std::size_t done = 0; ok && done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (!ok) ::unlink(path.c_str());
    return ok;
}

bool remove_directory(const std::string& path) { return ::rmdir(path.c_str()) == 0; }

bool remove_private_directory(const std::string& path) {
    std::error_code error;
    std::filesystem::remove_all(path, error);
    return !error;
}

}  // namespace os
