// HistoryJournal's reading half: a record decoded with bounded nesting and size, and a journal
// replayed into the History and SessionChanges, each record's path judged as a live call would
// judge it. The writing half (open, append, compact) is ledger/history_journal.cpp.
#include "ledger/history_journal.hpp"

#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/log.hpp"

namespace ledger {

namespace {

using Json = nlohmann::json;

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
            if (*t != "h" || text("kind") != std::string(journal_kind)) {
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

}  // namespace ledger
