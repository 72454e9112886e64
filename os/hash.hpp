// Content hashes, hex-encoded: SHA-256 (os/crypto) where it is shown or bound into an approval, a
// fast fingerprint (xxHash) where the server only needs to recognise its own files.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace os {

std::string sha256_hex(std::string_view bytes);
// Of bytes held as consecutive parts: the same as of the parts joined.
std::string sha256_hex(std::span<const std::string_view> parts);

// A fast content fingerprint (XXH3-128, hex) for recognising a file this server read or wrote:
// the session's file states, the re-check before a write, undo. Not for what an adversary could
// choose to collide: approvals are bound with SHA-256.
std::string content_fingerprint(std::string_view bytes);
std::string content_fingerprint(std::span<const std::string_view> parts);

}  // namespace os
