// A file content's fingerprint (os::content_fingerprint of its bytes) as a type of its own, so a
// fingerprint is never confused with other strings, and "no content" (a deleted file) is
// std::optional<Fingerprint>'s empty state rather than a sentinel string.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "os/hash.hpp"

namespace ledger {

struct Fingerprint {
    std::string hex;

    static Fingerprint of(std::string_view bytes) { return {os::content_fingerprint(bytes)}; }
    // Of bytes held as consecutive parts: the same as of the parts joined.
    static Fingerprint of(std::span<const std::string_view> parts) { return {os::content_fingerprint(parts)}; }
    bool operator==(const Fingerprint&) const = default;
};

}  // namespace ledger
