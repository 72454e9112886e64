// --history-dir: the undo history and the session's changes kept on disk, so `undo` and the
// session patch survive a restart. One journal file per set of roots in DIR, appended to as
// changes land: each record a length-prefixed CBOR map written whole (a record cut short by a
// crash is dropped when the journal is read back, the ones before it count). On start it is
// replayed into the History and SessionChanges (their byte caps apply), and rewritten compactly
// (temp file + rename) when it has grown past what they hold. A lock file beside it keeps a second
// server on the same roots out (it runs with memory only), so two never append to one journal.
// The journal is input, not trust: a record is decoded with bounded nesting and size, and one that
// names a path no live call could change (outside the roots, through a symlink, ignored) is dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "os/ignore_files.hpp"
#include "os/locks.hpp"
#include "os/workspace.hpp"
#include "ledger/history.hpp"
#include "ledger/session_changes.hpp"

namespace ledger {

class HistoryJournal {
public:
    static constexpr std::uint64_t max_journal_bytes = 1ull << 30;  // past this, rewritten from memory
    static constexpr std::size_t max_record_bytes = 600u << 20;     // a longer record is not read back
    // A record is one flat CBOR map: deeper nesting, or more items, is not one (and is refused
    // while decoding, before anything is built: nlohmann's reader recurses once per level).
    static constexpr std::size_t max_record_nesting = 4;
    static constexpr std::size_t max_record_items = 64;
    static constexpr std::size_t max_path_bytes = 32768;

    // Opens (creating DIR when missing) the journal of the workspace's roots in `dir`, replays it
    // into `history` and `changes`, and compacts it when it holds more than they kept. A record
    // whose path a live call would refuse (outside the roots, not a real path, or refused by
    // `ignore` for writing; nullptr: nothing ignored) is dropped and logged. A failure says why
    // (the server then runs without persistence and says so).
    static base::Result<std::unique_ptr<HistoryJournal>> open(const std::string& dir, const os::Workspace& workspace,
                                                              os::IgnoreFiles* ignore, History& history,
                                                              SessionChanges& changes);
    ~HistoryJournal();

    // One record's CBOR payload as JSON; a discarded value when it is not a map within the bounds
    // above (or not CBOR at all). Never throws, never recurses deeper than max_record_nesting.
    static nlohmann::json decode_record(const std::uint8_t* data, std::size_t size);

    // What a replay read: records taken, and records dropped because of their path.
    struct Replay {
        std::size_t records = 0;       // read back, the header included (dropped ones too)
        std::size_t dropped = 0;       // named a path a live call would refuse
        std::uint64_t good_bytes = 0;  // up to the end of the last whole record of a known shape
        bool header_seen = false;
        bool foreign = false;  // the first record is not our header: not a journal of ours
    };
    // Replays journal bytes read through `read` (false: not that many bytes left) of a file of
    // `size` bytes into `history` and `changes`, up to the first record cut short or of an unknown
    // shape. open() reads the file with it; the fuzz target (fuzz/fuzz_history_journal.cpp) bytes.
    static Replay replay(const std::function<bool(char*, std::size_t)>& read, std::uint64_t size,
                         const os::Workspace& workspace, os::IgnoreFiles* ignore, History& history,
                         SessionChanges& changes);

    const std::string& path() const { return path_; }
    std::size_t replayed() const { return replayed_; }  // records read back at start
    std::size_t dropped() const { return dropped_; }    // of those, dropped for their path

    // A change recorded in the history (after: nullptr when it deleted the file), with the file's
    // mode before it (0: none) and a move's other file ("" for any other change); see History::Entry.
    void recorded(const std::string& real_path, const std::string& tool, bool existed, std::string_view before,
                  const std::string* after, std::uint32_t mode = 0, const std::string& partner = {});
    // The newest history entry of `real_path` was undone.
    void popped(const std::string& real_path);
    // The bytes `real_path` had before this session's first change of it (none: it did not exist).
    void based(const std::string& real_path, bool existed, std::string_view base);

private:
    // The header record's "kind": what marks a journal as one of ours.
    static constexpr std::string_view journal_kind = "mcp-edit history journal";

    HistoryJournal(std::string path, History& history, SessionChanges& changes);
    void append(const std::string& record);
    // The journal as the history and session changes hold it now (a header and their records).
    std::string compact() const;
    base::Result<void> rewrite(const std::string& bytes);
    bool open_for_append();

    std::string path_;
    os::FileLock lock_;  // on path_ + ".lock": one server per journal
    History& history_;
    SessionChanges& changes_;
    std::mutex mutex_;
    int out_ = -1;  // appended to; opened close-on-exec (checks and language servers never inherit it)
    std::uint64_t size_ = 0;
    std::size_t replayed_ = 0;
    std::size_t dropped_ = 0;
};

}  // namespace ledger
