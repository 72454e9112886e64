// HistoryJournal: CBOR records, each behind its 4-byte length, appended to the journal file, which
// is opened (and replayed: ledger/history_journal_replay.cpp) at start and rewritten compactly when
// it outgrows what the history holds.
#include "ledger/history_journal.hpp"

#include <filesystem>
#include <map>
#include <optional>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#else
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#endif

#include <nlohmann/json.hpp>

#include "base/log.hpp"
#include "os/hash.hpp"
#include "os/file_reads.hpp"
#include "os/file_status.hpp"
#include "os/file_writes.hpp"
#include "os/locks.hpp"

namespace ledger {
namespace {

using Json = nlohmann::json;

std::filesystem::path fs_path(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

Json bytes(std::string_view s) { return Json::binary(std::vector<std::uint8_t>(s.begin(), s.end())); }

std::string framed(const Json& record) {
    const std::vector<std::uint8_t> cbor = Json::to_cbor(record);
    std::string out(4, '\0');
    const auto n = static_cast<std::uint32_t>(cbor.size());
    for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    out.append(cbor.begin(), cbor.end());
    return out;
}

// "m": the permission bits before the change, "q": a move's other file (both left out when none;
// journals written before they existed replay as changes with no mode and no partner).
Json record_of(const std::string& path, const std::string& tool, bool existed, std::string_view before,
               const std::string* after, std::uint32_t mode, const std::string& partner) {
    Json out = {{"t", "r"},     {"p", path},          {"tool", tool},
                {"e", existed}, {"b", bytes(before)}, {"a", after ? bytes(*after) : Json()}};
    if (mode & 07777) out["m"] = mode & 07777;
    if (!partner.empty()) out["q"] = partner;
    return out;
}

Json base_of(const std::string& path, bool existed, std::string_view base) {
    return {{"t", "s"}, {"p", path}, {"e", existed}, {"b", existed ? bytes(base) : Json()}};
}

// The journal's descriptors: opened close-on-exec (not inheritable on Windows), so that no check
// or language server the server starts holds the journal open.
#ifdef _WIN32
int open_file(const std::string& path, bool append) {
    const int flags = _O_BINARY | _O_NOINHERIT | (append ? _O_WRONLY | _O_APPEND | _O_CREAT : _O_RDONLY);
    return ::_wopen(fs_path(path).c_str(), flags, _S_IREAD | _S_IWRITE);
}
long long read_some(int fd, char* data, std::size_t size) {
    return ::_read(fd, data, static_cast<unsigned>(std::min<std::size_t>(size, 1u << 30)));
}
long long write_some(int fd, const char* data, std::size_t size) {
    return ::_write(fd, data, static_cast<unsigned>(std::min<std::size_t>(size, 1u << 30)));
}
void close_file(int fd) { ::_close(fd); }
bool interrupted() { return false; }
#else
int open_file(const std::string& path, bool append) {
    const int flags = O_CLOEXEC | (append ? O_WRONLY | O_APPEND | O_CREAT : O_RDONLY);
    return ::open(path.c_str(), flags, 0600);
}
long long read_some(int fd, char* data, std::size_t size) { return ::read(fd, data, size); }
long long write_some(int fd, const char* data, std::size_t size) { return ::write(fd, data, size); }
void close_file(int fd) { ::close(fd); }
bool interrupted() { return errno == EINTR; }
#endif

// Exactly `size` bytes from `fd`; false at the end of the file or on an error.
bool read_exact(int fd, char* data, std::size_t size) {
    while (size > 0) {
        const long long n = read_some(fd, data, size);
        if (n < 0 && interrupted()) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const long long n = write_some(fd, bytes.data(), bytes.size());
        if (n < 0 && interrupted()) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

}  // namespace

HistoryJournal::HistoryJournal(std::string path, History& history, SessionChanges& changes)
    : path_(std::move(path)), history_(history), changes_(changes) {}

HistoryJournal::~HistoryJournal() {
    if (out_ >= 0) close_file(out_);
}
base::Result<std::unique_ptr<HistoryJournal>> HistoryJournal::open(const std::string& dir,
                                                                   const os::Workspace& workspace,
                                                                   os::IgnoreFiles* ignore, History& history,
                                                                   SessionChanges& changes) {
    if (auto made = os::make_directories(dir, false); !made)
        return base::fail(base::Failure{"--history-dir " + dir + " cannot be created: " + made.error().message});
    std::string joined;
    for (const auto& root : workspace.roots()) joined += root + "\n";
    const std::string path = dir + (dir.empty() || dir.back() == '/' ? "" : "/") + "history-" +
                             os::sha256_hex(joined).substr(0, 16) + ".journal";
    std::unique_ptr<HistoryJournal> journal(new HistoryJournal(path, history, changes));
    if (auto locked = os::take_lock(path + ".lock", journal->lock_); !locked)
        return base::fail(
            base::Failure{locked.error().reason == base::ErrorReason::conflict
                              ? "another mcp-edit serving the same roots uses " + path + " (it holds " + path + ".lock)"
                              : path + ".lock cannot be locked: " + locked.error().message});

    // Replay what a previous run wrote, up to the first record that is cut short or unreadable.
    std::error_code size_error;
    const std::uint64_t on_disk =
        std::filesystem::exists(fs_path(path)) ? std::filesystem::file_size(fs_path(path), size_error) : 0;
    const std::string header = framed({{"t", "h"}, {"kind", journal_kind}, {"version", 1}});
    std::string start;  // the first bytes, to tell a journal cut short in its header from a foreign file
    Replay replayed;
    if (on_disk > 0) {
        const int in = open_file(path, false);
        if (in < 0) return base::fail(base::Failure{path + " cannot be opened for reading"});
        const auto read = [in, &start, &header](char* data, std::size_t size) {
            const bool whole = read_exact(in, data, size);
            if (start.size() < header.size()) start.append(data, std::min(size, header.size() - start.size()));
            return whole;
        };
        replayed = replay(read, on_disk, workspace, ignore, history, changes);
        close_file(in);
    }
    if (replayed.foreign) return base::fail(base::Failure{path + " is not a history journal of mcp-edit"});
    journal->replayed_ = replayed.records;
    journal->dropped_ = replayed.dropped;
    if (replayed.dropped)
        base::log::warn("history journal {}: {} record(s) naming paths a call could not change were dropped", path,
                        replayed.dropped);

    if (!replayed.header_seen && on_disk > 0) {
        // Not even a whole header: a journal whose first write was cut short, or somebody else's file.
        if (on_disk > header.size() || start.size() > header.size() || header.compare(0, start.size(), start) != 0)
            return base::fail(base::Failure{path + " is not a history journal of mcp-edit; it is left as it is"});
    }
    // Rewritten when it holds much more than was kept (evicted, undone or dropped changes), or was cut short.
    const std::string compacted = journal->compact();
    if (!replayed.header_seen || on_disk != replayed.good_bytes || replayed.dropped || compacted.size() * 2 < on_disk) {
        if (auto rewritten = journal->rewrite(compacted); !rewritten)
            return base::fail(base::Failure{path + " cannot be written: " + rewritten.error().message});
    } else {
        journal->size_ = on_disk;
    }
    if (!journal->open_for_append()) return base::fail(base::Failure{path + " cannot be opened for appending"});
    // It holds the bytes of every changed file: readable by its owner only, whatever the umask.
    std::error_code mode_error;
    std::filesystem::permissions(fs_path(path),
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::replace, mode_error);
    if (mode_error) base::log::warn("history journal {}: cannot make it private: {}", path, mode_error.message());
    return journal;
}

bool HistoryJournal::open_for_append() {
    if (out_ >= 0) close_file(out_);
    out_ = open_file(path_, true);
    return out_ >= 0;
}

std::string HistoryJournal::compact() const {
    std::string out = framed({{"t", "h"}, {"kind", journal_kind}, {"version", 1}});  // as open() expects it
    // A big file's newest after-image is only on disk (the history keeps deltas).
    const auto read_current = [](const std::string& real_path) -> std::optional<std::string> {
        auto file = os::read_regular_file(real_path, std::uint64_t{1} << 40);
        if (!file) return std::nullopt;
        return std::move(file->bytes);
    };
    for (const auto& e : history_.export_all(read_current))
        out += framed(record_of(e.real_path, e.entry.tool, e.entry.existed, e.entry.before,
                                e.entry.after_fingerprint ? &e.entry.after : nullptr, e.entry.mode, e.entry.partner));
    for (const auto& f : changes_.files()) {
        std::optional<std::string> base;
        if (f.existed && f.delta) {
            const auto now = read_current(f.real_path);
            base = f.base_given(now ? &*now : nullptr);
        } else if (f.base) {
            base = *f.base;
        }
        if (!f.existed || base) out += framed(base_of(f.real_path, f.existed, base ? *base : std::string()));
    }
    return out;
}

base::Result<void> HistoryJournal::rewrite(const std::string& bytes_now) {
    if (out_ >= 0) close_file(out_);
    out_ = -1;
    const os::FileStat st = os::stat_path(path_);
    auto staged = os::stage_write(path_, bytes_now, st.kind == os::FileKind::regular ? &st : nullptr, false);
    if (!staged) return base::fail(std::move(staged.error()));
    if (auto committed = os::commit_staged(staged.value(), false); !committed) return committed;
    size_ = bytes_now.size();
    return {};
}

void HistoryJournal::append(const std::string& record) {
    std::lock_guard lock(mutex_);
    if (size_ + record.size() > max_journal_bytes) {
        if (auto rewritten = rewrite(compact()); !rewritten)
            base::log::warn("history journal {}: {}", path_, rewritten.error().message);
        open_for_append();
    }
    // One write per record reaches the file whole; a crash mid-record loses that record only.
    const bool written = out_ >= 0 && write_all(out_, record);
    size_ += record.size();
    if (!written) base::log::warn("history journal {}: a record could not be written", path_);
}

void HistoryJournal::recorded(const std::string& real_path, const std::string& tool, bool existed,
                              std::string_view before, const std::string* after, std::uint32_t mode,
                              const std::string& partner) {
    append(framed(record_of(real_path, tool, existed, before, after, mode, partner)));
}

void HistoryJournal::popped(const std::string& real_path) { append(framed({{"t", "u"}, {"p", real_path}})); }

void HistoryJournal::based(const std::string& real_path, bool existed, std::string_view base) {
    append(framed(base_of(real_path, existed, base)));
}

}  // namespace ledger
