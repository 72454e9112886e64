// The changes waiting for the human's decision in the review view (MCP Apps): each bound to the
// exact bytes shown (pre- and post-image hashes of every file) and to a single-use secret token
// that only the view receives, in a result's _meta, which hosts never hand to their model.
// Bounded in count and bytes; an entry lives until it is decided or --approval-timeout passes.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "os/workspace.hpp"
#include "tools/pipeline/approval.hpp"

namespace server {

// What the human was shown: every file's SHA-256 before ("absent") and after ("deleted").
struct ShownImages {
    std::map<std::string, std::string> before;  // real path -> hash
    std::map<std::string, std::string> after;
    bool operator==(const ShownImages&) const = default;
};
ShownImages shown_images(const tools::ApprovalRequest& ask);

// One change the view shows for a decision.
struct PendingReview {
    std::string id;     // "r7": public, in the model's result too
    std::string token;  // 64 hex digits: secret, only in the view's payload
    std::string tool;
    nlohmann::json args;  // the call's checked arguments: Apply runs the call again with them
    std::shared_ptr<const os::Workspace> workspace;  // the call's roots
    ShownImages images;
    std::string title;  // "edit of src/x.py"
    std::chrono::steady_clock::time_point expires;
    std::size_t bytes = 0;  // what it costs to keep (arguments and hashes)
};

class PendingReviews {
public:
    static constexpr std::size_t max_count = 64;
    static constexpr std::size_t max_bytes = 64u << 20;

    explicit PendingReviews(std::chrono::milliseconds lifetime) : lifetime_(lifetime) {}

    // Keeps `review` (its id, token, expiry and cost filled in here) and returns what was kept;
    // a failure when the table is full (the message says how full).
    base::Result<const PendingReview*> add(PendingReview review, std::chrono::steady_clock::time_point now);

    // The pending review of a file among `real_paths`, if any (expired ones are let go first).
    const PendingReview* covering(const std::vector<std::string>& real_paths,
                                  std::chrono::steady_clock::time_point now);

    // Takes the review `id` out if `token` is its token (compared in constant time): single use.
    // A failure says which of unknown, decided, expired or wrong token it was, for the view.
    base::Result<PendingReview> take(const std::string& id, const std::string& token,
                                     std::chrono::steady_clock::time_point now);

    // Sentences for the model about reviews that expired unanswered since the last call.
    std::vector<std::string> take_expired_notes(std::chrono::steady_clock::time_point now);

    std::size_t size() const { return pending_.size(); }

private:
    void let_go_expired(std::chrono::steady_clock::time_point now);

    std::chrono::milliseconds lifetime_;
    std::vector<PendingReview> pending_;  // in the order asked
    std::vector<std::string> decided_;    // ids already decided or expired (the last 256), for the message
    std::vector<std::string> expired_notes_;
    std::size_t bytes_ = 0;
    std::size_t next_id_ = 1;
};

}  // namespace server
