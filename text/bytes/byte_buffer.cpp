// reserve_bytes: std::string::reserve plus madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside
// a large buffer (Linux; elsewhere, or when THP is off, the advice is a no-op).
#include "text/bytes/byte_buffer.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace text {

void reserve_bytes(std::string& s, std::size_t n) {
    s.reserve(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    if (n < 4 * kHugePage || !s.empty()) return;
    const auto data = reinterpret_cast<std::uintptr_t>(s.data());
    const std::uintptr_t begin = (data + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (data + n) & ~(kHugePage - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace text
