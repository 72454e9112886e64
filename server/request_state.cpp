// RequestStateSigner: base64url(payload JSON) "." base64url(HMAC-SHA256(key, payload)).
#include "server/request_state.hpp"

#include <cctype>

#include "os/crypto.hpp"
#include "os/hash.hpp"

namespace server {

namespace {

// base64url without padding (RFC 4648 section 5): base64 with the URL alphabet swapped in.
std::string encode(const std::string& in) {
    std::string out = os::crypto::to_base64(in);
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::optional<std::string> decode(std::string in) {
    for (char& c : in) {
        if (c == '-')
            c = '+';
        else if (c == '_')
            c = '/';
        else if (c == '+' || c == '/' || !std::isalnum(static_cast<unsigned char>(c)))
            return std::nullopt;
    }
    if (in.size() % 4 == 1) return std::nullopt;
    const std::size_t padding = (4 - in.size() % 4) % 4;
    in.append(padding, '=');
    return os::crypto::from_base64(in);
}

}  // namespace

std::string canonical_digest(const nlohmann::json& value) {
    return os::sha256_hex(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

RequestStateSigner::RequestStateSigner() { os::crypto::random_bytes(key_); }

std::string RequestStateSigner::mac(const std::string& payload) const {
    const os::crypto::Digest tag = os::crypto::hmac_sha256(key_, payload);
    return std::string(reinterpret_cast<const char*>(tag.data()), tag.size());
}

std::string RequestStateSigner::sign(const ApprovalBinding& b, std::chrono::system_clock::time_point expires) const {
    unsigned char nonce[12];
    os::crypto::random_bytes(nonce);
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
    if (!os::crypto::equal_constant_time(*tag, expected)) {
        out.verdict = Verdict::bad_signature;
        return out;
    }
    // Signed by this process, so written by sign(); read without assuming so all the same.
    const nlohmann::json p = nlohmann::json::parse(*payload, nullptr, false);
    const auto field = [&p](const char* key) -> const nlohmann::json* {
        const auto it = p.is_object() ? p.find(key) : p.end();
        return it == p.end() ? nullptr : &*it;
    };
    const auto* v = field("v");
    const auto* exp = field("exp");
    const auto* tool = field("tool");
    const auto* args = field("args");
    const auto* pre = field("pre");
    const auto* post = field("post");
    const auto* nonce = field("nonce");
    if (!v || *v != 1 || !exp || !exp->is_number_integer() || !tool || !tool->is_string() || !args ||
        !args->is_string() || !pre || !pre->is_object() || !post || !post->is_object() || !nonce || !nonce->is_string())
        return out;
    out.binding.tool = tool->get<std::string>();
    out.binding.arguments_digest = args->get<std::string>();
    out.binding.pre_images = *pre;
    out.binding.post_images = *post;
    out.nonce = nonce->get<std::string>();
    out.expires = std::chrono::system_clock::time_point(std::chrono::milliseconds(exp->get<std::int64_t>()));
    out.verdict = now > out.expires ? Verdict::expired : Verdict::valid;
    return out;
}

UsedStates::Use UsedStates::use(const std::string& nonce, std::chrono::system_clock::time_point expires,
                                std::chrono::system_clock::time_point now) {
    if (used_.count(nonce)) return Use::again;
    if (bytes_ + cost(nonce) > max_bytes) {
        for (auto it = used_.begin(); it != used_.end();) {
            if (it->second < now) {
                bytes_ -= cost(it->first);
                it = used_.erase(it);
            } else {
                ++it;
            }
        }
        if (bytes_ + cost(nonce) > max_bytes) return Use::full;
    }
    used_.emplace(nonce, expires);
    bytes_ += cost(nonce);
    return Use::first;
}

}  // namespace server
