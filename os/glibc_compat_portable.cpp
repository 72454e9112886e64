// What lets the portable Linux executable (MCP_EDIT_PORTABLE, cmake/Dependencies.cmake) start on
// glibc older than the 2.36 it is built on: the static libstdc++ of GCC 12 calls arc4random (new in
// glibc 2.36) from std::random_device, which its exception classes drag in. Defined here, that
// call binds to this function at link time, not to glibc's versioned symbol. Linked into the
// mcp-edit executable only, never into a library.
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include <sys/random.h>

extern "C" std::uint32_t arc4random(void) {
    std::uint32_t value = 0;
    auto* bytes = reinterpret_cast<unsigned char*>(&value);
    std::size_t filled = 0;
    while (filled < sizeof value) {
        const ssize_t got = ::getrandom(bytes + filled, sizeof value - filled, 0);
        if (got > 0) filled += static_cast<std::size_t>(got);
        // getrandom blocks until the pool is ready and fails only on EINTR (retried) or when the
        // kernel has no such call (before 3.17); std::random_device's other sources then apply.
        else if (got < 0 && errno != EINTR)
            break;
    }
    return value;
}
