// --history-dir: the undo history and the session's changes kept on disk, so `undo` and the
// session patch survive a restart. One journal file per set of roots in DIR, appended to as
// changes land: each record a length-prefixed CBOR map written whole (a record cut short by a
// crash is dropped when the journal is read back, the ones before it count). On start it is
// replayed into the History and SessionChanges (their byte caps apply), and rewritten compactly
// (temp file + rename) when it has grown past what they hold. A lock file beside it keeps a second
// server on the same roots out (it runs with memory only), so two never append to one journal.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "os/platform.hpp"
#include "tools/history.hpp"
#include "tools/session_changes.hpp"

namespace tools {

class HistoryJournal {
public:
    static constexpr std::uint64_t max_journal_bytes = 1ull << 30;  // past this, rewritten from memory
    static constexpr std::size_t max_record_bytes = 600u << 20;    // a longer record is not read back

    // Opens (creating DIR when missing) the journal of `roots` in `dir`, replays it into `history`
    // and `changes`, and compacts it when it holds more than they kept. A failure says why (the
    // server then runs without persistence and says so).
    static base::Result<std::unique_ptr<HistoryJournal>> open(const std::string& dir, const std::vector<std::string>& roots,
                                                              History& history, SessionChanges& changes);
    ~HistoryJournal();

    const std::string& path() const { return path_; }
    std::size_t replayed() const { return replayed_; }  // records read back at start

    // A change recorded in the history (after: nullptr when it deleted the file).
    void recorded(const std::string& real_path, const std::string& tool, bool existed, std::string_view before,
                  const std::string* after);
    // The newest history entry of `real_path` was undone.
    void popped(const std::string& real_path);
    // The bytes `real_path` had before this session's first change of it (none: it did not exist).
    void based(const std::string& real_path, bool existed, std::string_view base);

private:
    HistoryJournal(std::string path, History& history, SessionChanges& changes);
    void append(const std::string& record);
    // The journal as the history and session changes hold it now (a header and their records).
    std::string compact() const;
    bool rewrite(const std::string& bytes, std::string& error);

    std::string path_;
    platform::FileLock lock_;  // on path_ + ".lock": one server per journal
    History& history_;
    SessionChanges& changes_;
    std::mutex mutex_;
    std::ofstream out_;
    std::uint64_t size_ = 0;
    std::size_t replayed_ = 0;
};

}  // namespace tools
