// RequestStateSigner: base64url(payload JSON) "." base64url(HMAC-SHA256(key, payload)).
#include "server/request_state.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cctype>
#include <cerrno>
#include <stdexcept>

#include <sys/random.h>

#include "os/hash.hpp"

namespace server {

namespace {

// base64url without padding (RFC 4648 section 5): OpenSSL's base64 with the URL alphabet swapped in.
std::string encode(const std::string& in) {
    std::string out(4 * ((in.size() + 2) / 3) + 1, '\0');  // and the NUL it writes
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::optional<std::string> decode(std::string in) {
    for (char& c : in) {
        if (c == '-') c = '+';
        else if (c == '_') c = '/';
        else if (c == '+' || c == '/' || !std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
    }
    if (in.size() % 4 == 1) return std::nullopt;
    const std::size_t padding = (4 - in.size() % 4) % 4;
    in.append(padding, '=');
    std::string out(in.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
    if (n < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(n) - padding);  // EVP_DecodeBlock counts the padding as zero bytes
    return out;
}

}  // namespace

std::string canonical_digest(const nlohmann::json& value) {
    return os::sha256_hex(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

namespace {

// Random bytes from the kernel (getrandom(2)): the key is made at start-up without waking up
// OpenSSL's random generator, which costs megabytes of resident memory in a process that may
// never sign anything.
void random_bytes(unsigned char* out, std::size_t n) {
    while (n > 0) {
        const ssize_t got = ::getrandom(out, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("no randomness for the requestState key");
        }
        out += got;
        n -= static_cast<std::size_t>(got);
    }
}

}  // namespace

RequestStateSigner::RequestStateSigner() { random_bytes(key_, sizeof key_); }

std::string RequestStateSigner::mac(const std::string& payload) const {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key_, sizeof key_, reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), out, &len);
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string RequestStateSigner::sign(const ApprovalBinding& b, std::chrono::system_clock::time_point expires) const {
    unsigned char nonce[12];
    random_bytes(nonce, sizeof nonce);
    const nlohmann::json payload = {
        {"v", 1},
        {"tool", b.tool},
        {"args", b.arguments_digest},
        {"pre", b.pre_images},
        {"post", b.post_images},
        {"exp", std::chrono::duration_cast<std::chrono::milliseconds>(expires.time_since_epoch()).count()},
        {"nonce", encode(std::string(reinterpret_cast<char*>(nonce), sizeof nonce))},
    };
    const std::string text = payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return encode(text) + "." + encode(mac(text));
}

RequestStateSigner::Checked RequestStateSigner::verify(const std::string& token,
                                                        std::chrono::system_clock::time_point now) const {
    Checked out;
    if (token.size() > 64 * 1024) return out;
    const auto dot = token.find('.');
    if (dot == std::string::npos) return out;
    const auto payload = decode(token.substr(0, dot));
    const auto tag = decode(token.substr(dot + 1));
    if (!payload || !tag) return out;
    // Only the one canonical spelling: another encoding of the same bytes is not what we issued.
    if (encode(*payload) + "." + encode(*tag) != token) return out;
    const std::string expected = mac(*payload);
    if (tag->size() != expected.size() || CRYPTO_memcmp(tag->data(), expected.data(), expected.size()) != 0) {
        out.verdict = Verdict::bad_signature;
        return out;
    }
    nlohmann::json p = nlohmann::json::parse(*payload, nullptr, false);
    if (!p.is_object() || p.value("v", 0) != 1 || !p.contains("exp") || !p["exp"].is_number_integer()) return out;
    out.binding.tool = p.value("tool", "");
    out.binding.arguments_digest = p.value("args", "");
    out.binding.pre_images = p.value("pre", nlohmann::json::object());
    out.binding.post_images = p.value("post", nlohmann::json::object());
    const auto expires = std::chrono::system_clock::time_point(std::chrono::milliseconds(p["exp"].get<std::int64_t>()));
    out.verdict = now > expires ? Verdict::expired : Verdict::valid;
    return out;
}

}  // namespace server
