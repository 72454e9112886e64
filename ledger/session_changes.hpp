// Which files this session changed, and each one's bytes from before its first change: the base
// of the session patch (`mcp-edit://session/patch`, the per-file resources, the `changes` tool).
// Unlike the undo history it never forgets a file's base by age: it is bounded by a byte cap,
// past which a file is still listed but its base is not kept. A big file's base is kept as a delta
// on what the server last wrote (the bytes its changes replaced), rebuilt from the file on disk
// while the file is still what the server wrote. Listeners hear of every change
// (the session turns that into notifications/resources/*). Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ledger/fingerprint.hpp"
#include "text/bytes/spliced_bytes.hpp"

namespace ledger {

class SessionChanges {
public:
    // The base is `written` (what the server last wrote: fingerprint `written`, none when it
    // deleted the file) with each span's range [at, at + length) replaced by its `base` bytes.
    // Spans are in order and do not overlap: one per region this session's changes touched.
    struct BaseDelta {
        struct Span {
            std::size_t at = 0;
            std::size_t length = 0;
            std::string base;
        };
        std::vector<Span> spans;
        std::size_t written_size = 0;
        std::optional<Fingerprint> written;
        std::size_t cost() const;
    };
    struct File {
        std::string real_path;
        std::uint64_t order = 0;                  // 1 for the session's first changed file, 2 for the next, ...
        std::size_t changes = 0;                  // writes of it by this session (undo included)
        bool base_pending = true;                 // registered, its base not yet stored (the lane is still held)
        bool existed = true;                      // false: this session created it; its base is "no file"
        bool base_kept = true;                    // false: the base was over the byte cap, so it is not kept
        std::shared_ptr<const std::string> base;  // the bytes before the first change (when existed and kept, small)
        std::shared_ptr<const BaseDelta> delta;   // instead of `base` for a big file
        // The base, given the file's bytes now (nullptr: it is missing); nullopt when it cannot be
        // rebuilt (not kept, or a big file no longer what the server wrote).
        std::optional<std::string> base_given(const std::string* now) const;
    };
    // Bases up to this size are kept whole; bigger ones as a delta.
    static constexpr std::size_t max_whole_base = 1u << 20;

    static constexpr std::size_t max_files = 100000;

    explicit SessionChanges(std::size_t max_base_bytes = 64u << 20) : max_base_bytes_(max_base_bytes) {}

    // A change of `real_path` was written (`existed`: the file was there before it): listed at
    // once (before the reply), so the next request sees it. Returns true when the file is new to
    // the list. Called while its lane is held.
    bool note_change(const std::string& real_path, bool existed);
    // The bytes `real_path` had before the change just noted (only the first change's count).
    // Called after the reply, still holding the lane.
    // Returns true when this was the file's base (false: it had one already, or is not listed).
    bool keep_base(const std::string& real_path, std::string_view before);
    // Every change written (after the reply, lane held, in write order): the bytes it replaced
    // and wrote (`after` nullptr: deleted), to keep a big file's base as a delta. Stores the base
    // like keep_base when it is the file's first change.
    void changed(const std::string& real_path, std::string_view before, const std::optional<text::ByteParts>& after,
                 const std::optional<Fingerprint>& written);

    // Every changed file, in the order first changed.
    std::vector<File> files() const;
    std::optional<File> find(const std::string& real_path) const;
    std::size_t size() const;

    // Called after note_change (on the thread that noted it), with the path and whether it is new.
    using Listener = std::function<void(const std::string& real_path, bool new_file)>;
    void set_listener(Listener listener);

    // Restores a file's record as a persisted history left it (--history-dir), before any change.
    void restore(File file);

private:
    mutable std::mutex mutex_;
    std::size_t max_base_bytes_;
    std::size_t base_bytes_ = 0;
    std::uint64_t next_order_ = 1;
    std::unordered_map<std::string, File> files_;
    Listener listener_;
};

}  // namespace ledger
