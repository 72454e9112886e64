// HistoryJournal: CBOR records, each behind its 4-byte length, appended; replayed at start.
#include "tools/history_journal.hpp"

#include <filesystem>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "os/hash.hpp"
#include "os/platform.hpp"

namespace tools {

namespace {

using Json = nlohmann::json;

std::filesystem::path fs_path(const std::string& utf8) { return std::filesystem::path(std::u8string(utf8.begin(), utf8.end())); }

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

Json record_of(const std::string& path, const std::string& tool, bool existed, std::string_view before, const std::string* after) {
    return {{"t", "r"}, {"p", path}, {"tool", tool}, {"e", existed}, {"b", bytes(before)}, {"a", after ? bytes(*after) : Json()}};
}

Json base_of(const std::string& path, bool existed, std::string_view base) {
    return {{"t", "s"}, {"p", path}, {"e", existed}, {"b", existed ? bytes(base) : Json()}};
}

constexpr std::string_view kind = "mcp-edit history journal";

}  // namespace

HistoryJournal::HistoryJournal(std::string path, History& history, SessionChanges& changes)
    : path_(std::move(path)), history_(history), changes_(changes) {}

HistoryJournal::~HistoryJournal() = default;

base::Result<std::unique_ptr<HistoryJournal>> HistoryJournal::open(const std::string& dir, const std::vector<std::string>& roots,
                                                                   History& history, SessionChanges& changes) {
    std::string error;
    if (!platform::make_directories(dir, false, error))
        return base::fail(base::Failure{"--history-dir " + dir + " cannot be created: " + error});
    std::string joined;
    for (const auto& root : roots) joined += root + "\n";
    const std::string path = dir + (dir.empty() || dir.back() == '/' ? "" : "/") + "history-" + os::sha256_hex(joined).substr(0, 16) + ".journal";
    std::unique_ptr<HistoryJournal> journal(new HistoryJournal(path, history, changes));
    bool held_elsewhere = false;
    if (!platform::take_lock(path + ".lock", journal->lock_, held_elsewhere, error))
        return base::fail(base::Failure{
            held_elsewhere ? "another mcp-edit serving the same roots uses " + path + " (it holds " + path + ".lock)"
                           : path + ".lock cannot be locked: " + error});

    // Replay what a previous run wrote, up to the first record that is cut short or unreadable.
    std::error_code size_error;
    const std::uint64_t on_disk = std::filesystem::exists(fs_path(path)) ? std::filesystem::file_size(fs_path(path), size_error) : 0;
    const std::string header = framed({{"t", "h"}, {"kind", kind}, {"version", 1}});
    std::ifstream in(fs_path(path), std::ios::binary);
    std::map<std::string, std::size_t> writes;
    struct Base {
        std::string path;
        bool existed;
        std::string bytes;
    };
    std::vector<Base> bases;
    std::uint64_t good = 0;
    bool header_seen = false;
    while (in) {
        unsigned char prefix[4];
        if (!in.read(reinterpret_cast<char*>(prefix), 4)) break;
        const std::uint32_t n = prefix[0] | (prefix[1] << 8) | (prefix[2] << 16) | (static_cast<std::uint32_t>(prefix[3]) << 24);
        if (n > max_record_bytes || on_disk < good + 4 || n > on_disk - good - 4) break;
        std::vector<std::uint8_t> payload(n);
        if (!in.read(reinterpret_cast<char*>(payload.data()), n)) break;
        const Json r = Json::from_cbor(payload, true, false);
        if (r.is_discarded() || !r.is_object()) break;
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
        if (!header_seen) {
            if (*t != "h" || text("kind") != std::string(kind)) return base::fail(base::Failure{path + " is not a history journal of mcp-edit"});
            header_seen = true;
        } else if (*t == "r") {
            const auto tool = text("tool");
            const auto existed = flag("e");
            auto before = bytes_at(r, "b");
            auto after = bytes_at(r, "a");
            const bool deleted = is_null_at(r, "a");
            if (!p || !tool || !existed || !before || (!after && !deleted)) break;
            std::optional<Fingerprint> fingerprint;
            if (after) fingerprint = Fingerprint::of(*after);
            history.record(*tool, *p, *existed, std::move(*before), after ? std::move(*after) : std::string(), std::move(fingerprint));
            ++writes[*p];
        } else if (*t == "u") {
            if (!p) break;
            if (const auto latest = history.latest(*p)) history.pop(*p, latest->seq);
            ++writes[*p];
        } else if (*t == "s") {
            const auto existed = flag("e");
            auto base = bytes_at(r, "b");
            if (!p || !existed || (*existed && !base)) break;
            bases.push_back({*p, *existed, base ? std::move(*base) : std::string()});
        } else {
            break;
        }
        good += 4 + n;
        ++journal->replayed_;
    }
    in.close();
    for (auto& b : bases) {
        SessionChanges::File file;
        file.real_path = b.path;
        file.existed = b.existed;
        file.changes = writes[b.path];
        if (file.existed) file.base = std::make_shared<const std::string>(std::move(b.bytes));
        changes.restore(std::move(file));
    }

    if (!header_seen && on_disk > 0) {
        // Not even a whole header: a journal whose first write was cut short, or somebody else's file.
        std::string start(static_cast<std::size_t>(std::min<std::uint64_t>(on_disk, header.size())), '\0');
        std::ifstream(fs_path(path), std::ios::binary).read(start.data(), static_cast<std::streamsize>(start.size()));
        if (on_disk > header.size() || header.compare(0, start.size(), start) != 0)
            return base::fail(base::Failure{path + " is not a history journal of mcp-edit; it is left as it is"});
    }
    // Rewritten when it holds much more than was kept (evicted or undone changes), or was cut short.
    const std::string compacted = journal->compact();
    if (!header_seen || on_disk != good || compacted.size() * 2 < on_disk) {
        if (!journal->rewrite(compacted, error)) return base::fail(base::Failure{path + " cannot be written: " + error});
    } else {
        journal->size_ = on_disk;
    }
    journal->out_.open(fs_path(path), std::ios::binary | std::ios::app);
    if (!journal->out_) return base::fail(base::Failure{path + " cannot be opened for appending"});
    // It holds the bytes of every changed file: readable by its owner only, whatever the umask.
    std::error_code mode_error;
    std::filesystem::permissions(fs_path(path), std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::replace, mode_error);
    if (mode_error) spdlog::warn("history journal {}: cannot make it private: {}", path, mode_error.message());
    return journal;
}

std::string HistoryJournal::compact() const {
    std::string out = framed({{"t", "h"}, {"kind", kind}, {"version", 1}});  // as open() expects it
    for (const auto& e : history_.export_all())
        out += framed(record_of(e.real_path, e.entry.tool, e.entry.existed, e.entry.before,
                                e.entry.after_fingerprint ? &e.entry.after : nullptr));
    for (const auto& f : changes_.files())
        if (!f.existed || f.base) out += framed(base_of(f.real_path, f.existed, f.base ? *f.base : std::string()));
    return out;
}

bool HistoryJournal::rewrite(const std::string& bytes_now, std::string& error) {
    if (out_.is_open()) out_.close();
    platform::StagedWrite staged;
    const platform::FileStat st = platform::stat_path(path_);
    if (!platform::stage_write(path_, bytes_now, st.kind == platform::FileKind::regular ? &st : nullptr, false, staged, error) ||
        !platform::commit_staged(staged, false, error))
        return false;
    size_ = bytes_now.size();
    return true;
}

void HistoryJournal::append(const std::string& record) {
    std::lock_guard lock(mutex_);
    if (size_ + record.size() > max_journal_bytes) {
        std::string error;
        if (!rewrite(compact(), error)) spdlog::warn("history journal {}: {}", path_, error);
        out_.open(fs_path(path_), std::ios::binary | std::ios::app);
    }
    out_.write(record.data(), static_cast<std::streamsize>(record.size()));
    out_.flush();  // whole records reach the file; a crash mid-record loses that record only
    size_ += record.size();
    if (!out_) spdlog::warn("history journal {}: a record could not be written", path_);
}

void HistoryJournal::recorded(const std::string& real_path, const std::string& tool, bool existed, std::string_view before,
                              const std::string* after) {
    append(framed(record_of(real_path, tool, existed, before, after)));
}

void HistoryJournal::popped(const std::string& real_path) { append(framed({{"t", "u"}, {"p", real_path}})); }

void HistoryJournal::based(const std::string& real_path, bool existed, std::string_view base) {
    append(framed(base_of(real_path, existed, base)));
}

}  // namespace tools
