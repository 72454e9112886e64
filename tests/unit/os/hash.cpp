// Unit tests of os/hash: SHA-256 against the FIPS 180-2 test vectors, and the fingerprint's form.
#include <doctest/doctest.h>

#include <string>

#include "os/hash.hpp"

TEST_CASE("sha256_hex: the standard test vectors, lowercase hex") {
    CHECK(os::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(os::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(os::sha256_hex(std::string("a\0b", 3)) != os::sha256_hex("a"));
}

TEST_CASE("content_fingerprint: 32 lowercase hex digits, equal for equal bytes only") {
    const std::string f = os::content_fingerprint("caf\xE9\r\n");
    CHECK(f.size() == 32);
    CHECK(f.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(f == os::content_fingerprint("caf\xE9\r\n"));
    CHECK(f != os::content_fingerprint("caf\xE9\n"));
    // Fixed width: leading zeros are written.
    CHECK(os::content_fingerprint("").size() == 32);
}
