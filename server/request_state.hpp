// The integrity-protected `requestState` of Multi Round-Trip Requests (protocol 2026-07-28): a
// token the client echoes on its retry, binding the approval to the tool, a digest of its
// arguments, the files' pre-image hashes, the hash of the approved result, and an expiry.
// HMAC-SHA256 with a per-process random key; everything in it is treated as attacker-controlled.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace server {

struct ApprovalBinding {
    std::string tool;
    std::string arguments_digest;  // sha256 of the canonical arguments
    nlohmann::json pre_images;     // {real path: sha256 | "absent"}
    nlohmann::json post_images;    // {real path: sha256 | "deleted"}
};

class RequestStateSigner {
public:
    RequestStateSigner();  // a fresh random key

    std::string sign(const ApprovalBinding& binding, std::chrono::system_clock::time_point expires) const;

    enum class Verdict { valid, malformed, bad_signature, expired };
    struct Checked {
        Verdict verdict = Verdict::malformed;
        ApprovalBinding binding;
        std::string nonce;  // what names this state among all that were issued
        std::chrono::system_clock::time_point expires;
    };
    Checked verify(const std::string& token, std::chrono::system_clock::time_point now) const;

private:
    std::string mac(const std::string& payload) const;
    unsigned char key_[32];
};

// The states whose approval has been used, remembered until they expire: an approval is good for
// one write (a retry sent again after the file was reverted must not write it a second time).
// Bounded in bytes; when full of unexpired states, it refuses (fail closed) rather than forget one.
class UsedStates {
public:
    static constexpr std::size_t max_bytes = 1u << 20;
    enum class Use { first, again, full };
    // Records the state `nonce` as used, unless it already was (or there is no room).
    Use use(const std::string& nonce, std::chrono::system_clock::time_point expires,
            std::chrono::system_clock::time_point now);

private:
    static std::size_t cost(const std::string& nonce) { return nonce.size() + 64; }  // with the table's overhead
    std::unordered_map<std::string, std::chrono::system_clock::time_point> used_;
    std::size_t bytes_ = 0;
};

// sha256 of the canonical form of a JSON value (keys sorted, no spaces).
std::string canonical_digest(const nlohmann::json& value);

}  // namespace server
