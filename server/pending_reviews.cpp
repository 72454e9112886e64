// PendingReviews: keeping, finding and taking out the changes the review view shows for a decision.
#include "server/pending_reviews.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "os/crypto.hpp"
#include "os/hash.hpp"
#include "server/approval_messages.hpp"

namespace server {

namespace {

std::string random_token() {
    std::array<unsigned char, 32> bytes{};
    os::crypto::random_bytes(bytes);
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (unsigned char b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

constexpr std::size_t max_decided_remembered = 256;

}  // namespace

ShownImages shown_images(const tools::ApprovalRequest& ask) {
    ShownImages images;
    for (const auto& image : ask.images) {
        images.before[image.real_path] = image.before ? os::sha256_hex(*image.before) : std::string("absent");
        images.after[image.real_path] = image.after ? os::sha256_hex(image.after->span()) : std::string("deleted");
    }
    return images;
}

void PendingReviews::let_go_expired(std::chrono::steady_clock::time_point now) {
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (it->expires > now) {
            ++it;
            continue;
        }
        expired_notes_.push_back(review_expired_note(
            it->title, it->id, std::chrono::duration_cast<std::chrono::seconds>(lifetime_).count()));
        if (expired_notes_.size() > 16) expired_notes_.erase(expired_notes_.begin());
        decided_.push_back(it->id);
        bytes_ -= it->bytes;
        it = pending_.erase(it);
    }
    if (decided_.size() > max_decided_remembered)
        decided_.erase(decided_.begin(),
                       decided_.begin() + static_cast<std::ptrdiff_t>(decided_.size() - max_decided_remembered));
}

base::Result<const PendingReview*> PendingReviews::add(PendingReview review,
                                                       std::chrono::steady_clock::time_point now) {
    let_go_expired(now);
    review.bytes = review.args.dump().size() + review.title.size() + 256;
    for (const auto& [path, hash] : review.images.before) review.bytes += 2 * path.size() + 2 * hash.size() + 64;
    if (pending_.size() >= max_count || bytes_ + review.bytes > max_bytes)
        return base::fail(base::Failure{too_many_pending_reviews_message(pending_.size(), max_count, max_bytes >> 20),
                                        base::ErrorReason::approval_unavailable});
    review.id = "r" + std::to_string(next_id_++);
    review.token = random_token();
    review.expires = now + lifetime_;
    bytes_ += review.bytes;
    pending_.push_back(std::move(review));
    return &pending_.back();
}

const PendingReview* PendingReviews::covering(const std::vector<std::string>& real_paths,
                                              std::chrono::steady_clock::time_point now) {
    let_go_expired(now);
    for (const auto& review : pending_)
        for (const auto& path : real_paths)
            if (review.images.before.count(path)) return &review;
    return nullptr;
}

base::Result<PendingReview> PendingReviews::take(const std::string& id, const std::string& token,
                                                 std::chrono::steady_clock::time_point now) {
    let_go_expired(now);
    const auto it =
        std::find_if(pending_.begin(), pending_.end(), [&id](const PendingReview& r) { return r.id == id; });
    if (it == pending_.end()) {
        const bool decided = std::find(decided_.begin(), decided_.end(), id) != decided_.end();
        return base::fail(base::Failure{no_pending_review_message(id, decided), base::ErrorReason::invalid_arguments});
    }
    if (!os::crypto::equal_constant_time(it->token, token))
        return base::fail(base::Failure{review_token_mismatch_message(id), base::ErrorReason::invalid_arguments});
    PendingReview taken = std::move(*it);
    bytes_ -= taken.bytes;
    pending_.erase(it);
    decided_.push_back(taken.id);
    return taken;
}

std::vector<std::string> PendingReviews::take_expired_notes(std::chrono::steady_clock::time_point now) {
    let_go_expired(now);
    return std::exchange(expired_notes_, {});
}

}  // namespace server
