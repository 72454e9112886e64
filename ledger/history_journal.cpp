// HistoryJournal: CBOR records, each behind its 4-byte length, appended; replayed at start.
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
#include "os/platform.hpp"

namespace ledger {

namespace {

using Json = nlohmann::json;

std::filesystem::path fs_path(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

Json bytes(std::string_view s) { return Json::binary(std::vector<std::uint8_t>(s.begin(), s.end())); }

// The bytes under `key` of a record (a CBOR byte string); nullopt when absent or of another type.
std::optional<std::string> bytes_at(const Json& record, const char* key) {
    const auto it = record.find(key);
    if (it == record.end() || !it->is_binary()) return std::nullopt;
    const auto& b = it->get_binary();
    return std::string(b.begin(), b.end());
}

bool is_null_at(const Json& record, const char* key) {
    const auto it = record.find(key);
    return it != record.end() && it->is_null();
}

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

constexpr std::string_view kind = "mcp-edit history journal";

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

// nlohmann's DOM builder, refusing (before it builds or recurses) nesting and item counts a record
// never has: a crafted record of 200,000 nested arrays would otherwise overflow the stack.
class BoundedRecordSax : public nlohmann::detail::json_sax_dom_parser<Json> {
public:
    using Base = nlohmann::detail::json_sax_dom_parser<Json>;
    explicit BoundedRecordSax(Json& out) : Base(out, false) {}

    bool null() { return item() && Base::null(); }
    bool boolean(bool v) { return item() && Base::boolean(v); }
    bool number_integer(Json::number_integer_t v) { return item() && Base::number_integer(v); }
    bool number_unsigned(Json::number_unsigned_t v) { return item() && Base::number_unsigned(v); }
    bool number_float(Json::number_float_t v, const std::string& s) { return item() && Base::number_float(v, s); }
    bool string(std::string& v) { return item() && Base::string(v); }
    bool binary(Json::binary_t& v) { return item() && Base::binary(v); }
    bool key(std::string& k) { return item() && Base::key(k); }
    bool start_object(std::size_t n) { return open(n) && Base::start_object(static_cast<std::size_t>(-1)); }
    bool end_object() {
        --depth_;
        return Base::end_object();
    }
    bool start_array(std::size_t n) { return open(n) && Base::start_array(static_cast<std::size_t>(-1)); }
    bool end_array() {
        --depth_;
        return Base::end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t, const std::string&, const Exception&) {
        failed_ = true;
        return false;
    }
    bool failed() const { return failed_; }

private:
    bool item() {
        if (++items_ <= HistoryJournal::max_record_items) return true;
        failed_ = true;
        return false;
    }
    // A container: its declared length (-1: indefinite) and its depth are checked before it is built.
    bool open(std::size_t declared) {
        if (!item() || ++depth_ > HistoryJournal::max_record_nesting ||
            (declared != static_cast<std::size_t>(-1) && declared > HistoryJournal::max_record_items)) {
            failed_ = true;
            return false;
        }
        return true;
    }
    std::size_t depth_ = 0;
    std::size_t items_ = 0;
    bool failed_ = false;
};

// Why a replayed record's path is not taken: a live call would refuse it (outside the roots, a
// path that is not what resolving it gives, i.e. through a symlink or with `..`, or ignored for
// writing). nullopt: taken. Each path is judged once per replay.
class PathJudge {
public:
    PathJudge(const os::Workspace& workspace, os::IgnoreFiles* ignore) : workspace_(workspace), ignore_(ignore) {}

    const std::optional<std::string>& refused(const std::string& path) {
        const auto known = verdicts_.find(path);
        if (known != verdicts_.end()) return known->second;
        if (verdicts_.size() >= max_verdicts) verdicts_.clear();  // bounded; judged again when needed
        auto verdict = judge(path);
        if (verdict)
            base::log::warn("history journal: a record of {} is not replayed: {}", path.substr(0, 256), *verdict);
        return verdicts_.emplace(path, std::move(verdict)).first->second;
    }

private:
    static constexpr std::size_t max_verdicts = 100000;

    std::optional<std::string> judge(const std::string& path) const {
        if (path.empty() || path.size() > HistoryJournal::max_path_bytes || path.find('\0') != std::string::npos)
            return "not a usable path";
        auto resolution = workspace_.resolve(path);
        if (!resolution) return std::move(resolution).error().message;
        const os::ResolvedPath& resolved = *resolution;
        if (resolved.real != path)
            return "it is not a resolved path inside the roots (it resolves to " + resolved.real + ")";
        if (!ignore_) return std::nullopt;
        const std::string* root = workspace_.root_of(resolved.real);
        if (!root) return "it is outside the roots";
        if (const auto refusal = ignore_->refuse_write(*root, resolved.real))
            return "it is ignored (" +
                   (refusal->rule.empty() ? refusal->ignored_path
                                          : "rule `" + refusal->rule + "` in " + refusal->file) +
                   ")";
        return std::nullopt;
    }

    const os::Workspace& workspace_;
    os::IgnoreFiles* ignore_;
    std::map<std::string, std::optional<std::string>> verdicts_;
};

}  // namespace

HistoryJournal::HistoryJournal(std::string path, History& history, SessionChanges& changes)
    : path_(std::move(path)), history_(history), changes_(changes) {}

HistoryJournal::~HistoryJournal() {
    if (out_ >= 0) close_file(out_);
}

Json HistoryJournal::decode_record(const std::uint8_t* data, std::size_t size) {
    Json out;
    BoundedRecordSax sax(out);
    bool ok = false;
    try {
        ok = Json::sax_parse(data, data + size, &sax, Json::input_format_t::cbor, true);
    } catch (const Json::exception&) {
        ok = false;
    }
    if (!ok || sax.failed() || sax.is_errored() || !out.is_object()) return Json(Json::value_t::discarded);
    return out;
}

HistoryJournal::Replay HistoryJournal::replay(const std::function<bool(char*, std::size_t)>& read, std::uint64_t size,
                                              const os::Workspace& workspace, os::IgnoreFiles* ignore, History& history,
                                              SessionChanges& changes) {
    Replay out;
    PathJudge judge(workspace, ignore);
    std::map<std::string, std::size_t> writes;
    struct Base {
        std::string path;
        bool existed;
        std::string bytes;
    };
    std::vector<Base> bases;
    for (;;) {
        unsigned char prefix[4];
        if (!read(reinterpret_cast<char*>(prefix), 4)) break;
        const std::uint32_t n =
            prefix[0] | (prefix[1] << 8) | (prefix[2] << 16) | (static_cast<std::uint32_t>(prefix[3]) << 24);
        if (n > max_record_bytes || size < out.good_bytes + 4 || n > size - out.good_bytes - 4) break;
        std::vector<std::uint8_t> payload(n);
        if (n > 0 && !read(reinterpret_cast<char*>(payload.data()), n)) break;
        const Json r = decode_record(payload.data(), payload.size());
        if (r.is_discarded()) break;
        // A record of the wrong shape (another version, a damaged file) ends the replay like a torn one.
        const auto text = [&](const char* key) {
            const auto it = r.find(key);
            return it != r.end() && it->is_string() ? std::optional<std::string>(it->get<std::string>()) : std::nullopt;
        };
        const auto flag = [&](const char* key) {
            const auto it = r.find(key);
            return it != r.end() && it->is_boolean() ? std::optional<bool>(it->get<bool>()) : std::nullopt;
        };
        const auto t = text("t");
        const auto p = text("p");
        if (!t) break;
        bool taken = true;
        if (!out.header_seen) {
            if (*t != "h" || text("kind") != std::string(kind)) {
                out.foreign = true;
                break;
            }
            out.header_seen = true;
        } else if (*t == "r") {
            const auto tool = text("tool");
            const auto existed = flag("e");
            auto before = bytes_at(r, "b");
            auto after = bytes_at(r, "a");
            const bool deleted = is_null_at(r, "a");
            const bool tool_name = tool && !tool->empty() && tool->size() <= 32 &&
                                   tool->find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
            if (!p || !tool_name || !existed || !before || (!after && !deleted)) break;
            // The mode, when there: permission bits only. A move's partner, when there: a path a
            // live call could change, not the record's own (undo writes there).
            std::uint32_t mode = 0;
            if (const auto m = r.find("m"); m != r.end()) {
                if (!m->is_number_unsigned() || m->get<std::uint64_t>() > 07777) break;
                // Never a set-user/group-ID bit from a journal: undo would make such a file.
                mode = static_cast<std::uint32_t>(m->get<std::uint64_t>()) & 01777;
            }
            const auto partner = text("q");
            if (r.contains("q") && (!partner || partner->empty())) break;
            taken = !judge.refused(*p) && (!partner || (*partner != *p && !judge.refused(*partner)));
            if (taken) {
                std::optional<Fingerprint> fingerprint;
                if (after) fingerprint = Fingerprint::of(*after);
                history.record(*tool, *p, *existed, *before, after ? std::string_view(*after) : std::string_view(),
                               std::move(fingerprint), mode, partner.value_or(std::string()));
                ++writes[*p];
            }
        } else if (*t == "u") {
            if (!p) break;
            if ((taken = !judge.refused(*p))) {
                if (const auto latest = history.latest(*p)) history.pop(*p, latest->seq);
                ++writes[*p];
            }
        } else if (*t == "s") {
            const auto existed = flag("e");
            auto base = bytes_at(r, "b");
            if (!p || !existed || (*existed && !base)) break;
            if ((taken = !judge.refused(*p))) bases.push_back({*p, *existed, base ? std::move(*base) : std::string()});
        } else {
            break;
        }
        out.good_bytes += 4 + n;
        ++out.records;
        if (!taken) ++out.dropped;
    }
    for (auto& b : bases) {
        SessionChanges::File file;
        file.real_path = b.path;
        file.existed = b.existed;
        file.changes = writes[b.path];
        if (file.existed) file.base = std::make_shared<const std::string>(std::move(b.bytes));
        changes.restore(std::move(file));
    }
    return out;
}

base::Result<std::unique_ptr<HistoryJournal>> HistoryJournal::open(const std::string& dir,
                                                                   const os::Workspace& workspace,
                                                                   os::IgnoreFiles* ignore, History& history,
                                                                   SessionChanges& changes) {
    if (auto made = platform::make_directories(dir, false); !made)
        return base::fail(base::Failure{"--history-dir " + dir + " cannot be created: " + made.error().message});
    std::string joined;
    for (const auto& root : workspace.roots()) joined += root + "\n";
    const std::string path = dir + (dir.empty() || dir.back() == '/' ? "" : "/") + "history-" +
                             os::sha256_hex(joined).substr(0, 16) + ".journal";
    std::unique_ptr<HistoryJournal> journal(new HistoryJournal(path, history, changes));
    if (auto locked = platform::take_lock(path + ".lock", journal->lock_); !locked)
        return base::fail(
            base::Failure{locked.error().reason == base::ErrorReason::conflict
                              ? "another mcp-edit serving the same roots uses " + path + " (it holds " + path + ".lock)"
                              : path + ".lock cannot be locked: " + locked.error().message});

    // Replay what a previous run wrote, up to the first record that is cut short or unreadable.
    std::error_code size_error;
    const std::uint64_t on_disk =
        std::filesystem::exists(fs_path(path)) ? std::filesystem::file_size(fs_path(path), size_error) : 0;
    const std::string header = framed({{"t", "h"}, {"kind", kind}, {"version", 1}});
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
    std::string out = framed({{"t", "h"}, {"kind", kind}, {"version", 1}});  // as open() expects it
    // A big file's newest after-image is only on disk (the history keeps deltas).
    const auto read_current = [](const std::string& real_path) -> std::optional<std::string> {
        auto file = platform::read_regular_file(real_path, std::uint64_t{1} << 40);
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
    const platform::FileStat st = platform::stat_path(path_);
    auto staged =
        platform::stage_write(path_, bytes_now, st.kind == platform::FileKind::regular ? &st : nullptr, false);
    if (!staged) return base::fail(std::move(staged.error()));
    if (auto committed = platform::commit_staged(staged.value(), false); !committed) return committed;
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
