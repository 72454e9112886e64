// What the journal's unit tests share: a fresh folder per journal, the one root the journals speak
// of, opening a journal on it, and records framed as the journal frames them (to append by hand).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ledger/history_journal.hpp"
#include "os/scratch_files.hpp"

namespace journal_test {

namespace fs = std::filesystem;
using ledger::History;
using ledger::HistoryJournal;
using ledger::SessionChanges;

// A path no other test process uses (a new private folder's child, not made yet: as a journal's
// folder is before its first write). Unseeded std::rand() names once collided between processes.
struct Dir {
    fs::path base = fs::path(os::make_private_directory("mcp-edit-journal-").value());
    fs::path path = base / "journal";
    ~Dir() {
        std::error_code ignored;
        fs::remove_all(base, ignored);
    }
    std::string str() const { return path.generic_string(); }
};

// The root the journals below speak of: a real folder, since
// a replayed path is checked against the roots as a live call's would be.
struct Root {
    Dir dir;
    std::string real;
    Root() {
        fs::create_directories(dir.path);
        real = os::Workspace({dir.str()}).roots().at(0);
    }
    std::string operator()(const std::string& name) const { return real + "/" + name; }
};

inline const Root& root() {
    static const Root r;
    return r;
}

inline std::unique_ptr<ledger::HistoryJournal> open(const Dir& d, ledger::History& h, ledger::SessionChanges& c,
                                                    std::vector<std::string> roots = {},
                                                    os::IgnoreFiles* ignore = nullptr) {
    if (roots.empty()) roots.push_back(root().real);
    auto j = ledger::HistoryJournal::open(d.str(), os::Workspace(roots), ignore, h, c);
    REQUIRE_MESSAGE(j.ok(), (j.ok() ? "" : j.error().message));
    return std::move(j).value();
}

// A record as the journal frames it: 4-byte little-endian length, then the CBOR.
inline std::string framed(const std::vector<std::uint8_t>& cbor) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((cbor.size() >> (8 * i)) & 0xFF);
    out.append(cbor.begin(), cbor.end());
    return out;
}

inline std::string framed(const nlohmann::json& record) { return framed(nlohmann::json::to_cbor(record)); }

inline std::string change_record(const std::string& path, const std::string& before, const std::string& after) {
    const auto bin = [](const std::string& s) {
        return nlohmann::json::binary(std::vector<std::uint8_t>(s.begin(), s.end()));
    };
    return framed(
        nlohmann::json{{"t", "r"}, {"p", path}, {"tool", "edit"}, {"e", true}, {"b", bin(before)}, {"a", bin(after)}});
}

inline std::string base_record(const std::string& path, const std::string& base) {
    return framed(nlohmann::json{{"t", "s"},
                                 {"p", path},
                                 {"e", true},
                                 {"b", nlohmann::json::binary(std::vector<std::uint8_t>(base.begin(), base.end()))}});
}

}  // namespace journal_test
