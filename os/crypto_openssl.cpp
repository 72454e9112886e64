// os/crypto.hpp through OpenSSL (EVP digests, HMAC, base64 blocks, CRYPTO_memcmp); random bytes
// straight from the kernel, so that OpenSSL's generator (megabytes of resident memory) is never
// woken in a process that may never sign anything.
#include "os/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cerrno>
#include <stdexcept>

#ifdef __linux__
#include <sys/random.h>
#else
#include <unistd.h>  // getentropy (macOS 10.12+, the BSDs)
#endif

namespace os::crypto {

Digest sha256(std::span<const std::string_view> parts) {
    Digest out{};
    unsigned int len = 0;
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    bool ok = context && EVP_DigestInit_ex(context, EVP_sha256(), nullptr) == 1;
    for (const auto part : parts) ok = ok && EVP_DigestUpdate(context, part.data(), part.size()) == 1;
    ok = ok && EVP_DigestFinal_ex(context, out.data(), &len) == 1;
    EVP_MD_CTX_free(context);
    if (!ok) throw std::runtime_error("OpenSSL could not compute SHA-256");
    return out;
}

Digest hmac_sha256(std::span<const unsigned char> key, std::string_view message) {
    Digest out{};
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), out.data(), &len);
    return out;
}

void random_bytes(std::span<unsigned char> out) {
    unsigned char* p = out.data();
    std::size_t n = out.size();
    while (n > 0) {
#ifdef __linux__
        const ssize_t got = ::getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("the kernel gave no random bytes (getrandom)");
        }
        const auto taken = static_cast<std::size_t>(got);
#else
        const std::size_t taken = n < 256 ? n : 256;  // getentropy's limit per call
        if (::getentropy(p, taken) != 0) throw std::runtime_error("the kernel gave no random bytes (getentropy)");
#endif
        p += taken;
        n -= taken;
    }
}

bool equal_constant_time(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string to_base64(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');  // and the NUL it writes
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::optional<std::string> from_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(n) - padding);  // EVP_DecodeBlock counts the padding as zero bytes
    return out;
}

}  // namespace os::crypto
