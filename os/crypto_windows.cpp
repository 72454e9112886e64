// os/crypto.hpp on Windows: SHA-256, HMAC-SHA256 and random bytes through CNG (BCrypt*), base64
// through CryptoAPI (CryptBinaryToStringA / CryptStringToBinaryA).
#include "os/crypto.hpp"

#include <windows.h>
#include <bcrypt.h>
#include <wincrypt.h>

#include <stdexcept>

namespace os::crypto {

namespace {

Digest hash(std::span<const unsigned char> key, std::span<const std::string_view> parts, bool hmac) {
    BCRYPT_ALG_HANDLE algorithm = nullptr;
    BCRYPT_HASH_HANDLE handle = nullptr;
    Digest out{};
    const ULONG flags = hmac ? BCRYPT_ALG_HANDLE_HMAC_FLAG : 0;
    bool ok = BCRYPT_SUCCESS(BCryptOpenAlgorithmProvider(&algorithm, BCRYPT_SHA256_ALGORITHM, nullptr, flags));
    ok = ok && BCRYPT_SUCCESS(BCryptCreateHash(algorithm, &handle, nullptr, 0,
                                               hmac ? const_cast<PUCHAR>(key.data()) : nullptr,
                                               hmac ? static_cast<ULONG>(key.size()) : 0, 0));
    // BCryptHashData takes at most 4 GiB a call.
    for (const auto message : parts)
        for (std::size_t done = 0; ok && done < message.size();) {
            const std::size_t part = std::min<std::size_t>(message.size() - done, 1u << 30);
            ok = BCRYPT_SUCCESS(BCryptHashData(handle,
                                               reinterpret_cast<PUCHAR>(const_cast<char*>(message.data() + done)),
                                               static_cast<ULONG>(part), 0));
            done += part;
        }
    ok = ok && BCRYPT_SUCCESS(BCryptFinishHash(handle, out.data(), static_cast<ULONG>(out.size()), 0));
    if (handle) BCryptDestroyHash(handle);
    if (algorithm) BCryptCloseAlgorithmProvider(algorithm, 0);
    if (!ok) throw std::runtime_error("Windows CNG could not compute SHA-256");
    return out;
}

}  // namespace

Digest sha256(std::span<const std::string_view> parts) { return hash({}, parts, false); }

Digest hmac_sha256(std::span<const unsigned char> key, std::string_view message) {
    return hash(key, std::span<const std::string_view>(&message, 1), true);
}

void random_bytes(std::span<unsigned char> out) {
    if (!BCRYPT_SUCCESS(
            BCryptGenRandom(nullptr, out.data(), static_cast<ULONG>(out.size()), BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
        throw std::runtime_error("Windows gave no random bytes (BCryptGenRandom)");
}

bool equal_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    volatile unsigned char differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ = differ | static_cast<unsigned char>(a[i] ^ b[i]);
    return differ == 0;
}

std::string to_base64(std::string_view bytes) {
    if (bytes.empty()) return {};
    const auto* in = reinterpret_cast<const BYTE*>(bytes.data());
    const DWORD flags = CRYPT_STRING_BASE64 | CRYPT_STRING_NOCRLF;
    DWORD size = 0;
    if (!CryptBinaryToStringA(in, static_cast<DWORD>(bytes.size()), flags, nullptr, &size)) return {};
    std::string out(size, '\0');
    if (!CryptBinaryToStringA(in, static_cast<DWORD>(bytes.size()), flags, out.data(), &size)) return {};
    out.resize(size);  // without the NUL
    return out;
}

std::optional<std::string> from_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    if (text.empty()) return std::string();
    DWORD size = 0;
    if (!CryptStringToBinaryA(text.data(), static_cast<DWORD>(text.size()), CRYPT_STRING_BASE64, nullptr, &size,
                              nullptr, nullptr))
        return std::nullopt;
    std::string out(size, '\0');
    if (!CryptStringToBinaryA(text.data(), static_cast<DWORD>(text.size()), CRYPT_STRING_BASE64,
                              reinterpret_cast<BYTE*>(out.data()), &size, nullptr, nullptr))
        return std::nullopt;
    out.resize(size);
    return out;
}

}  // namespace os::crypto
