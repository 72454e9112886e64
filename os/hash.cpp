// SHA-256 via OpenSSL's EVP interface, XXH3-128 via xxHash; hex through fmt.
#include "os/hash.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <openssl/evp.h>
#include <xxhash.h>

namespace os {

std::string sha256_hex(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr);
    return fmt::format("{:02x}", fmt::join(digest, digest + len, ""));
}

std::string content_fingerprint(std::string_view bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace os
