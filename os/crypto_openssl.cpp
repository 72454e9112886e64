// os/crypto.hpp through OpenSSL's libcrypto: SHA-256 through its low-level SHA256_* functions (the
// same assembly EVP would run, SHA-NI where the processor has it), HMAC-SHA256 (RFC 2104) over
// them, base64 blocks, CRYPTO_memcmp; random bytes straight from the kernel, so that OpenSSL's
// generator (megabytes of resident memory) is never woken in a process that may never sign
// anything. Nothing here goes through EVP_MD or HMAC(): those bring OpenSSL's provider machinery
// into the statically linked executable (340 KB of pointer tables, three quarters of its
// relocations, each of whose pages every start has to copy and patch), for no difference in
// what is computed.
#define OPENSSL_SUPPRESS_DEPRECATED  // SHA256_Init and the others: deprecated in 3.0, not gone
#include "os/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#ifdef __linux__
#include <sys/random.h>
#else
#include <unistd.h>  // getentropy (macOS 10.12+, the BSDs)
#endif

namespace os::crypto {

namespace {

class Sha256 {
public:
    Sha256() {
        if (SHA256_Init(&context_) != 1) throw std::runtime_error("OpenSSL could not start a SHA-256");
    }
    Sha256& add(const void* bytes, std::size_t size) {
        if (SHA256_Update(&context_, bytes, size) != 1) throw std::runtime_error("OpenSSL could not compute SHA-256");
        return *this;
    }
    Digest finish() {
        Digest out{};
        if (SHA256_Final(out.data(), &context_) != 1) throw std::runtime_error("OpenSSL could not compute SHA-256");
        OPENSSL_cleanse(&context_, sizeof context_);
        return out;
    }

private:
    SHA256_CTX context_;
};

}  // namespace

Digest sha256(std::span<const std::string_view> parts) {
    Sha256 hash;
    for (const auto part : parts) hash.add(part.data(), part.size());
    return hash.finish();
}

Digest hmac_sha256(std::span<const unsigned char> key, std::string_view message) {
    // RFC 2104: H((K ^ opad) || H((K ^ ipad) || message)), K the key padded with zeros to the
    // block size (or, when longer than a block, its digest padded so).
    constexpr std::size_t block_size = SHA256_CBLOCK;  // 64
    std::array<unsigned char, block_size> padded{};
    if (key.size() > block_size) {
        const Digest hashed = Sha256().add(key.data(), key.size()).finish();
        std::copy(hashed.begin(), hashed.end(), padded.begin());
    } else {
        std::copy(key.begin(), key.end(), padded.begin());
    }
    std::array<unsigned char, block_size> pad{};
    for (std::size_t i = 0; i < block_size; ++i) pad[i] = padded[i] ^ 0x36;
    const Digest inner = Sha256().add(pad.data(), pad.size()).add(message.data(), message.size()).finish();
    for (std::size_t i = 0; i < block_size; ++i) pad[i] = padded[i] ^ 0x5c;
    const Digest out = Sha256().add(pad.data(), pad.size()).add(inner.data(), inner.size()).finish();
    OPENSSL_cleanse(padded.data(), padded.size());
    OPENSSL_cleanse(pad.data(), pad.size());
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
