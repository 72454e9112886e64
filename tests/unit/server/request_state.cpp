// Unit tests of server/request_state: the MRTR requestState verifies only as issued, unexpired,
// in its one canonical spelling, and carries its binding back intact.
#include <doctest/doctest.h>

#include "server/request_state.hpp"

using namespace std::chrono;
using server::RequestStateSigner;

namespace {
server::ApprovalBinding sample() {
    return {"edit",
            server::canonical_digest({{"file_path", "a.txt"}, {"old_string", "x"}}),
            {{"/r/a.txt", std::string(64, 'a')}},
            {{"/r/a.txt", std::string(64, 'b')}}};
}
}  // namespace

TEST_CASE("requestState: a fresh token verifies and returns its binding") {
    RequestStateSigner signer;
    const auto now = system_clock::now();
    const std::string token = signer.sign(sample(), now + seconds(60));
    const auto checked = signer.verify(token, now);
    REQUIRE(checked.verdict == RequestStateSigner::Verdict::valid);
    CHECK(checked.binding.tool == "edit");
    CHECK(checked.binding.arguments_digest == sample().arguments_digest);
    CHECK(checked.binding.pre_images == sample().pre_images);
    CHECK(checked.binding.post_images == sample().post_images);
}

TEST_CASE("requestState: expired, tampered, foreign, non-canonical and malformed tokens are refused") {
    RequestStateSigner signer;
    const auto now = system_clock::now();
    const std::string token = signer.sign(sample(), now + seconds(60));
    CHECK(signer.verify(token, now + seconds(61)).verdict == RequestStateSigner::Verdict::expired);
    std::string flipped = token;
    flipped[5] = flipped[5] == 'A' ? 'B' : 'A';
    CHECK(signer.verify(flipped, now).verdict != RequestStateSigner::Verdict::valid);
    RequestStateSigner other;
    CHECK(other.verify(token, now).verdict == RequestStateSigner::Verdict::bad_signature);
    // The same bytes spelled differently: set an unused low bit of the last base64url character.
    static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string respelled = token;
    const auto last_char = alphabet.find(respelled.back());
    REQUIRE(last_char != std::string::npos);
    respelled.back() = alphabet[last_char ^ 1];
    CHECK(signer.verify(respelled, now).verdict != RequestStateSigner::Verdict::valid);
    for (const char* garbage : {"", ".", "abc", "abc.def", "!!!.???"})
        CHECK(signer.verify(garbage, now).verdict != RequestStateSigner::Verdict::valid);
}
