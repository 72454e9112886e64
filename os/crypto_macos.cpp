// os/crypto.hpp on macOS from libSystem alone (no OpenSSL there): SHA-256 and HMAC-SHA256 from
// CommonCrypto, random bytes from arc4random_buf, comparison by timingsafe_bcmp.
#include "os/crypto.hpp"

#include <CommonCrypto/CommonDigest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

// CommonCrypto's HMAC (public API of libSystem since Mac OS X 10.4). The headers Zig ships for
// macOS hold CommonDigest.h but not CommonHMAC.h, so its one declaration used here is repeated
// from Apple's header: CCHmacAlgorithm is a uint32_t, and kCCHmacAlgSHA256 is 2.
extern "C" void CCHmac(std::uint32_t algorithm, const void* key, std::size_t key_length, const void* data,
                       std::size_t data_length, void* mac_out);

namespace os::crypto {

namespace {

constexpr std::uint32_t hmac_sha256_algorithm = 2;  // kCCHmacAlgSHA256

constexpr char base64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

}  // namespace

Digest sha256(std::span<const std::string_view> parts) {
    CC_SHA256_CTX context;
    CC_SHA256_Init(&context);
    // CC_LONG is 32 bits: feed at most 1 GiB a call.
    for (const auto bytes : parts)
        for (std::size_t done = 0; done < bytes.size();) {
            const std::size_t part = std::min<std::size_t>(bytes.size() - done, std::size_t{1} << 30);
            CC_SHA256_Update(&context, bytes.data() + done, static_cast<CC_LONG>(part));
            done += part;
        }
    Digest out{};
    CC_SHA256_Final(out.data(), &context);
    return out;
}

Digest hmac_sha256(std::span<const unsigned char> key, std::string_view message) {
    Digest out{};
    CCHmac(hmac_sha256_algorithm, key.data(), key.size(), message.data(), message.size(), out.data());
    return out;
}

void random_bytes(std::span<unsigned char> out) {
    // The kernel-seeded generator of libSystem; it cannot fail.
    ::arc4random_buf(out.data(), out.size());
}

bool equal_constant_time(std::string_view a, std::string_view b) {
    return a.size() == b.size() && ::timingsafe_bcmp(a.data(), b.data(), a.size()) == 0;
}

// libSystem offers no base64 (Security.framework's transforms are not in libSystem): RFC 4648
// section 4, with padding, here.
std::string to_base64(std::string_view bytes) {
    std::string out;
    out.reserve(4 * ((bytes.size() + 2) / 3));
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                                static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                                static_cast<unsigned char>(bytes[i + 2]);
        for (int shift = 18; shift >= 0; shift -= 6) out += base64_alphabet[(v >> shift) & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += base64_alphabet[(v >> 18) & 63];
        out += base64_alphabet[(v >> 12) & 63];
        out += rest == 2 ? base64_alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::optional<std::string> from_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const std::size_t padding = last ? (text[i + 3] == '=') + (text[i + 3] == '=' && text[i + 2] == '=') : 0;
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int value = k >= 4 - padding ? 0 : base64_value(text[i + k]);
            if (value < 0) return std::nullopt;
            v = v << 6 | static_cast<std::uint32_t>(value);
        }
        out += static_cast<char>(v >> 16);
        if (padding < 2) out += static_cast<char>((v >> 8) & 0xFF);
        if (padding < 1) out += static_cast<char>(v & 0xFF);
    }
    return out;
}

}  // namespace os::crypto
