// POSIX implementation of os/locks.hpp's FileLock: flock on a file of its own (one server per
// history journal). The folder lock is folder_lock_posix.cpp.
#include "os/locks.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace os {

FileLock::~FileLock() {
    if (handle_) ::close(static_cast<int>(reinterpret_cast<std::intptr_t>(handle_) - 1));  // drops the flock
}

base::Result<void> take_lock(const std::string& path, FileLock& lock) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return base::fail(base::Failure{std::strerror(errno), base::ErrorReason::io_error});
    int rc;
    do rc = ::flock(fd, LOCK_EX | LOCK_NB);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        const int err = errno;
        ::close(fd);
        if (err == EWOULDBLOCK)
            return base::fail(base::Failure{"another process holds it", base::ErrorReason::conflict});
        return base::fail(base::Failure{std::strerror(err), base::ErrorReason::io_error});
    }
    lock.handle_ = reinterpret_cast<void*>(static_cast<std::intptr_t>(fd) + 1);
    return {};
}

}  // namespace os
