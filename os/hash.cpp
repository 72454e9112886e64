// SHA-256 through os/crypto, XXH3-128 via xxHash; hex through fmt.
#include "os/hash.hpp"

#include <memory>
#include <new>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <xxhash.h>

#include "os/crypto.hpp"

namespace os {

std::string sha256_hex(std::string_view bytes) { return fmt::format("{:02x}", fmt::join(crypto::sha256(bytes), "")); }

std::string sha256_hex(std::span<const std::string_view> parts) {
    return fmt::format("{:02x}", fmt::join(crypto::sha256(parts), ""));
}

namespace {

std::string hex_of(const XXH128_hash_t& h) { return fmt::format("{:016x}{:016x}", h.high64, h.low64); }

}  // namespace

std::string content_fingerprint(std::string_view bytes) { return hex_of(XXH3_128bits(bytes.data(), bytes.size())); }

std::string content_fingerprint(std::span<const std::string_view> parts) {
    if (parts.size() == 1) return content_fingerprint(parts.front());
    // XXH3's streaming form gives the one-shot digest of the parts joined.
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
    if (!state || XXH3_128bits_reset(state.get()) != XXH_OK) throw std::bad_alloc();
    for (const auto part : parts)
        if (XXH3_128bits_update(state.get(), part.data(), part.size()) != XXH_OK) throw std::bad_alloc();
    return hex_of(XXH3_128bits_digest(state.get()));
}

}  // namespace os
