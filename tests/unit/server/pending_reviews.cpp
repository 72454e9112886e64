// PendingReviews: ids and tokens, single use, constant-time token check, expiry (and its note for
// the model), a file covered by a pending change, and the bounds on count.
#include <doctest/doctest.h>

#include "server/pending_reviews.hpp"

using server::PendingReview;
using server::PendingReviews;
using ReviewsClock = std::chrono::steady_clock;

namespace {

PendingReview review_of(const std::string& real_path) {
    PendingReview r;
    r.tool = "edit";
    r.args = {{"file_path", real_path}};
    r.images.before[real_path] = "absent";
    r.images.after[real_path] = "abc";
    r.title = "edit of " + real_path;
    return r;
}

}  // namespace

TEST_CASE("pending reviews: each gets its own id and 256-bit token; taken once, with its own token only") {
    PendingReviews reviews(std::chrono::seconds(600));
    const auto now = ReviewsClock::now();
    auto a = reviews.add(review_of("/r/a"), now);
    REQUIRE(a);
    const std::string a_id = (*a)->id, a_token = (*a)->token;
    auto b = reviews.add(review_of("/r/b"), now);
    REQUIRE(b);
    const std::string b_token = (*b)->token;
    CHECK(a_id == "r1");
    CHECK((*b)->id == "r2");
    CHECK(a_token.size() == 64);
    CHECK(a_token != b_token);
    CHECK_FALSE(reviews.take(a_id, b_token, now));  // another change's token
    CHECK_FALSE(reviews.take(a_id, "", now));
    auto taken = reviews.take(a_id, a_token, now);
    REQUIRE(taken);
    CHECK(taken->args["file_path"] == "/r/a");
    const auto again = reviews.take(a_id, a_token, now);
    REQUIRE_FALSE(again);
    CHECK(again.error().message.find("already decided") != std::string::npos);
    CHECK(reviews.size() == 1);
}

TEST_CASE("pending reviews: a covered file, expiry and its note") {
    PendingReviews reviews(std::chrono::seconds(10));
    const auto now = ReviewsClock::now();
    auto a = reviews.add(review_of("/r/a"), now);
    REQUIRE(a);
    const std::string id = (*a)->id, token = (*a)->token;
    CHECK(reviews.covering({"/r/x", "/r/a"}, now) != nullptr);
    CHECK(reviews.covering({"/r/b"}, now) == nullptr);
    const auto later = now + std::chrono::seconds(11);
    CHECK(reviews.covering({"/r/a"}, later) == nullptr);
    CHECK_FALSE(reviews.take(id, token, later));
    const auto notes = reviews.take_expired_notes(later);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find("did not review edit of /r/a (r1) within 10 s") != std::string::npos);
    CHECK(reviews.take_expired_notes(later).empty());
}

TEST_CASE("pending reviews: bounded in count, with a refusal that says so") {
    PendingReviews reviews(std::chrono::seconds(600));
    const auto now = ReviewsClock::now();
    for (std::size_t i = 0; i < PendingReviews::max_count; ++i)
        REQUIRE(reviews.add(review_of("/r/" + std::to_string(i)), now));
    const auto full = reviews.add(review_of("/r/full"), now);
    REQUIRE_FALSE(full);
    CHECK(full.error().message.find("already await the user's review") != std::string::npos);
}
