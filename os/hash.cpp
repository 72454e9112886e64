// SHA-256 through os/crypto, XXH3-128 via xxHash; hex through fmt.
#include "os/hash.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <xxhash.h>

#include "os/crypto.hpp"

namespace os {

std::string sha256_hex(std::string_view bytes) {
    return fmt::format("{:02x}", fmt::join(crypto::sha256(bytes), ""));
}

std::string content_fingerprint(std::string_view bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace os
