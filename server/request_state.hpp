// The integrity-protected `requestState` of Multi Round-Trip Requests (protocol 2026-07-28): a
// token the client echoes on its retry, binding the approval to the tool, a digest of its
// arguments, the files' pre-image hashes, the hash of the approved result, and an expiry.
// HMAC-SHA256 with a per-process random key; everything in it is treated as attacker-controlled.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

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
    };
    Checked verify(const std::string& token, std::chrono::system_clock::time_point now) const;

private:
    std::string mac(const std::string& payload) const;
    unsigned char key_[32];
};

// sha256 of the canonical form of a JSON value (keys sorted, no spaces).
std::string canonical_digest(const nlohmann::json& value);

}  // namespace server
