// The cryptography the server needs, behind one interface: SHA-256, HMAC-SHA256, random bytes from
// the operating system, a constant-time comparison and base64. OpenSSL on Linux and macOS
// (crypto_openssl.cpp); Windows' CNG and CryptoAPI on Windows (crypto_windows.cpp).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace os::crypto {

using Digest = std::array<unsigned char, 32>;

// Of the bytes, given whole or as consecutive parts.
Digest sha256(std::span<const std::string_view> parts);
inline Digest sha256(std::string_view bytes) { return sha256(std::span<const std::string_view>(&bytes, 1)); }
Digest hmac_sha256(std::span<const unsigned char> key, std::string_view message);

// Fills `out` from the operating system's generator (getrandom, getentropy, BCryptGenRandom);
// throws std::runtime_error when it has none to give.
void random_bytes(std::span<unsigned char> out);

// a == b, in a time that does not depend on where they differ.
bool equal_constant_time(std::string_view a, std::string_view b);

// Standard base64 (RFC 4648 section 4) with padding; nullopt when `text` is not that.
std::string to_base64(std::string_view bytes);
std::optional<std::string> from_base64(std::string_view text);

}  // namespace os::crypto
