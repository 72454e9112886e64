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

TEST_CASE("sha256_hex and content_fingerprint of parts: the same as of the parts joined") {
    const std::string whole = "first part\r\nsecond\xE9 part\nthe last part, without a newline";
    for (std::size_t a = 0; a <= whole.size(); a += 7)
        for (std::size_t b = a; b <= whole.size(); b += 5) {
            const std::string_view w = whole;
            const std::string_view parts[] = {w.substr(0, a), w.substr(a, b - a), w.substr(b)};
            CHECK(os::sha256_hex(std::span<const std::string_view>(parts)) == os::sha256_hex(whole));
            CHECK(os::content_fingerprint(std::span<const std::string_view>(parts)) == os::content_fingerprint(whole));
        }
    // Large enough for XXH3's streaming state to take several stripes and blocks.
    const std::string big(300000, 'x');
    const std::string_view v = big;
    const std::string_view split[] = {v.substr(0, 12345), v.substr(12345, 1), v.substr(12346)};
    CHECK(os::content_fingerprint(std::span<const std::string_view>(split)) == os::content_fingerprint(big));
    CHECK(os::content_fingerprint(std::span<const std::string_view>(split)) != os::content_fingerprint(big + "x"));
}
