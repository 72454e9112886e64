// Unit tests of os/crypto's HMAC-SHA256 (it signs the approval's requestState): RFC 4231's test
// cases, and keys at the block size's edges (expected values from Python's hmac module).
#include <doctest/doctest.h>

#include <span>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "os/crypto.hpp"

namespace {

std::string hmac_hex(const std::string& key, const std::string& message) {
    const auto* k = reinterpret_cast<const unsigned char*>(key.data());
    return fmt::format("{:02x}",
                       fmt::join(os::crypto::hmac_sha256(std::span<const unsigned char>(k, key.size()), message), ""));
}

}  // namespace

TEST_CASE("hmac_sha256: RFC 4231 test cases 1-4, 6 and 7") {
    CHECK(hmac_hex(std::string(20, '\x0b'), "Hi There") ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    CHECK(hmac_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    CHECK(hmac_hex(std::string(20, '\xaa'), std::string(50, '\xdd')) ==
          "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    std::string key4;
    for (char c = 1; c <= 25; ++c) key4 += c;
    CHECK(hmac_hex(key4, std::string(50, '\xcd')) ==
          "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    // Keys longer than the block: hashed first.
    CHECK(hmac_hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First") ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    CHECK(hmac_hex(std::string(131, '\xaa'),
                   "This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                   "to be hashed before being used by the HMAC algorithm.") ==
          "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("hmac_sha256: keys one byte under, at and over the block size, and empty") {
    CHECK(hmac_hex(std::string(63, '\x11'), "block edge") ==
          "67e968f5d309420c08775b61c56b4e1fbf693d67f7bc17461d4e394a82041eaa");
    CHECK(hmac_hex(std::string(64, '\x11'), "block edge") ==
          "acd35b5eec8b6bbcf6a763f71de17205e7a79b30c11a155190c5370d71475723");
    CHECK(hmac_hex(std::string(65, '\x11'), "block edge") ==
          "6bc13ab0c6c7afd81f5048bf4d1a15ff7ec680ab1b01814b2fc8e6fbf0388166");
    CHECK(hmac_hex("", "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}
