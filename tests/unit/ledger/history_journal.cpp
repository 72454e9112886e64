// Unit tests of ledger/history_journal: changes, undos and session bases written, read back into a
// fresh History and SessionChanges; a record cut short by a crash dropped (the earlier ones
// kept); a journal that holds more than was kept rewritten compactly; journals kept per roots; a
// record of the wrong shape ends the replay; a second server on the same journal is kept out; the
// journal is input, not trust: deep nesting is refused without a crash, and records naming paths
// outside the roots, through a symlink, or ignored are not replayed; its descriptor is close-on-exec.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tools/handlers/file_moves.hpp"
#include "ledger/history_journal.hpp"
#include "os/platform.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;
using ledger::History;
using ledger::HistoryJournal;
using ledger::SessionChanges;

namespace {

// A path no other test process uses (a new private folder's child, not made yet: as a journal's
// folder is before its first write). Unseeded std::rand() names once collided between processes.
struct Dir {
    fs::path base = fs::path(platform::make_private_directory("mcp-edit-journal-").value());
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

const Root& root() {
    static const Root r;
    return r;
}

std::unique_ptr<ledger::HistoryJournal> open(const Dir& d, ledger::History& h, ledger::SessionChanges& c,
                                             std::vector<std::string> roots = {}, os::IgnoreFiles* ignore = nullptr) {
    if (roots.empty()) roots.push_back(root().real);
    auto j = ledger::HistoryJournal::open(d.str(), os::Workspace(roots), ignore, h, c);
    REQUIRE_MESSAGE(j.ok(), (j.ok() ? "" : j.error().message));
    return std::move(j).value();
}

// A record as the journal frames it: 4-byte little-endian length, then the CBOR.
std::string framed(const std::vector<std::uint8_t>& cbor) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((cbor.size() >> (8 * i)) & 0xFF);
    out.append(cbor.begin(), cbor.end());
    return out;
}

std::string framed(const nlohmann::json& record) { return framed(nlohmann::json::to_cbor(record)); }

std::string change_record(const std::string& path, const std::string& before, const std::string& after) {
    const auto bin = [](const std::string& s) {
        return nlohmann::json::binary(std::vector<std::uint8_t>(s.begin(), s.end()));
    };
    return framed(
        nlohmann::json{{"t", "r"}, {"p", path}, {"tool", "edit"}, {"e", true}, {"b", bin(before)}, {"a", bin(after)}});
}

std::string base_record(const std::string& path, const std::string& base) {
    return framed(nlohmann::json{{"t", "s"},
                                 {"p", path},
                                 {"e", true},
                                 {"b", nlohmann::json::binary(std::vector<std::uint8_t>(base.begin(), base.end()))}});
}

}  // namespace

TEST_CASE("history journal: a restart finds the undo steps and the session's bases") {
    Dir d;
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        const std::string v1 = "one\n", v2 = "two\n", v3 = "three\n";
        j->based(root()("a.txt"), true, "zero\n");
        j->recorded(root()("a.txt"), "edit", true, "zero\n", &v1);
        j->recorded(root()("a.txt"), "edit", true, v1, &v2);
        j->recorded(root()("a.txt"), "edit", true, v2, &v3);
        j->popped(root()("a.txt"));
        j->based(root()("new.txt"), false, "");
        const std::string fresh = "fresh\n";
        j->recorded(root()("new.txt"), "write", false, "", &fresh);
        j->recorded(root()("gone.txt"), "apply_diff", true, "bye\n", nullptr);
    }
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c);
    CHECK(j->replayed() == 9);
    REQUIRE(h.depth(root()("a.txt")) == 2);
    const auto latest = h.latest(root()("a.txt"));
    CHECK(latest->before == "one\n");
    CHECK(latest->after == "two\n");
    CHECK(h.latest(root()("new.txt"))->existed == false);
    CHECK_FALSE(h.latest(root()("gone.txt"))->after_fingerprint);
    const auto files = c.files();
    REQUIRE(files.size() == 2);
    CHECK(files[0].real_path == root()("a.txt"));
    CHECK(*files[0].base == "zero\n");
    CHECK(files[0].changes == 4);
    CHECK_FALSE(files[1].existed);
}

TEST_CASE("history journal: a move's two files and the mode come back after a restart, and after a compaction") {
    Dir d;
    const std::string from = root()("run.sh"), to = root()("bin/run.sh");
    const std::string bytes = "#!/bin/sh\r\n\xff\0";
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        j->based(to, false, "");
        j->based(from, true, bytes);
        j->recorded(to, "move", false, "", &bytes, 0, from);
        j->recorded(from, "move", true, bytes, nullptr, 0100751, to);  // st_mode: the type bits are not kept
        const std::string big(100000, 'x');
        for (int i = 0; i < 20; ++i) {  // enough undone bytes that the next open compacts the journal
            j->recorded(root()("other.txt"), "edit", true, big, &big);
            j->popped(root()("other.txt"));
        }
    }
    for (int round = 0; round < 2; ++round) {  // as written, then as compacted
        CAPTURE(round);
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        const auto in = h.latest(to);
        const auto out = h.latest(from);
        REQUIRE(in);
        REQUIRE(out);
        CHECK(in->partner == from);
        CHECK(out->partner == to);
        CHECK(out->mode == 0751);
        CHECK(in->mode == 0);
        const auto move = tools::move_of(h, to);
        REQUIRE(move);
        CHECK(move->first == from);
        CHECK(move->second == to);
        CHECK(c.files().size() == 2);
    }
}

TEST_CASE(
    "history journal: a mode or a partner of the wrong shape ends the replay; a partner no call could change drops the "
    "record") {
    const auto bin = [](const std::string& s) {
        return nlohmann::json::binary(std::vector<std::uint8_t>(s.begin(), s.end()));
    };
    const auto record = [&](const std::string& path, nlohmann::json extra) {
        nlohmann::json r = {{"t", "r"}, {"p", path}, {"tool", "move"}, {"e", true}, {"b", bin("x\n")}, {"a", nullptr}};
        for (auto& [k, v] : extra.items()) r[k] = v;
        return framed(r);
    };
    const auto replay = [&](const std::string& records, ledger::History& h) {
        Dir d;
        std::string path;
        {
            ledger::History h0;
            ledger::SessionChanges c0;
            path = open(d, h0, c0)->path();
        }
        std::ofstream(fs::path(path), std::ios::binary | std::ios::app) << records;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        return std::make_pair(j->replayed(), j->dropped());
    };
    const std::string a = root()("a.txt"), b = root()("b.txt");
    SUBCASE("a mode that is not a permission number ends the replay there") {
        for (const nlohmann::json& bad :
             {nlohmann::json("0755"), nlohmann::json(-1), nlohmann::json(0100644), nlohmann::json(1.5)}) {
            CAPTURE(bad.dump());
            ledger::History h;
            const auto [records, dropped] = replay(record(a, {{"m", 0644}}) + record(b, {{"m", bad}}), h);
            CHECK(records == 2);  // the header and a.txt's change
            CHECK(h.latest(a)->mode == 0644);
            CHECK_FALSE(h.latest(b));
        }
    }
    SUBCASE("a set-user-ID bit is not taken from a journal") {
        ledger::History h;
        replay(record(a, {{"m", 06755}}), h);
        REQUIRE(h.latest(a));
        CHECK(h.latest(a)->mode == 0755);
    }
    SUBCASE("a partner that is not a path string ends the replay") {
        for (const nlohmann::json& bad : {nlohmann::json(""), nlohmann::json(7), nlohmann::json::array({b})}) {
            CAPTURE(bad.dump());
            ledger::History h;
            const auto [records, dropped] = replay(record(a, {{"q", bad}}), h);
            CHECK(records == 1);
            CHECK_FALSE(h.latest(a));
        }
    }
    SUBCASE("a partner outside the roots, through .., or the record's own path drops the record") {
        ledger::History h;
        const auto [records, dropped] =
            replay(record(a, {{"q", "/etc/passwd"}}) + record(a, {{"q", root()("sub/../b.txt")}}) +
                       record(a, {{"q", a}}) + record(b, {{"q", a}}),
                   h);
        CHECK(records == 5);
        CHECK(dropped == 3);
        CHECK_FALSE(h.latest(a));
        REQUIRE(h.latest(b));
        CHECK(h.latest(b)->partner == a);
    }
}

TEST_CASE("history journal: a record cut short is dropped, the ones before it count; other roots have their own") {
    Dir d;
    std::string path;
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string v1 = "1\n", v2 = "2\n";
        j->recorded(root()("a.txt"), "edit", true, "0\n", &v1);
        j->recorded(root()("a.txt"), "edit", true, v1, &v2);
    }
    fs::resize_file(path, fs::file_size(path) - 3);  // the crash hit the last record
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        CHECK(h.depth(root()("a.txt")) == 1);
        CHECK(h.latest(root()("a.txt"))->after == "1\n");
    }
    ledger::History h;
    ledger::SessionChanges c;
    Dir elsewhere;
    fs::create_directories(elsewhere.path);
    auto other = open(d, h, c, {elsewhere.str()});
    CHECK(other->path() != path);
    CHECK(h.depth(root()("a.txt")) == 0);
}

TEST_CASE("history journal: what was undone or evicted is written out when the journal is rewritten") {
    Dir d;
    std::string path;
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string big(100000, 'x');
        for (int i = 0; i < 20; ++i) {
            j->recorded(root()("a.txt"), "edit", true, big, &big);
            j->popped(root()("a.txt"));
        }
    }
    const auto before = fs::file_size(path);
    ledger::History h;
    ledger::SessionChanges c;
    open(d, h, c);
    CHECK(fs::file_size(path) < before / 10);
    CHECK(h.depth(root()("a.txt")) == 0);
    ledger::History again;
    ledger::SessionChanges c2;
    auto j = open(d, again, c2);
    CHECK(j->replayed() == 1);  // the header only
}

TEST_CASE("history journal: a file that is not a journal is not touched") {
    Dir d;
    fs::create_directories(d.path);
    ledger::History h;
    ledger::SessionChanges c;
    {
        auto j = ledger::HistoryJournal::open(d.str(), os::Workspace({root().real}), nullptr, h, c);
        REQUIRE(j.ok());
        const std::string p = j.value()->path();
        j = base::Result<std::unique_ptr<ledger::HistoryJournal>>(nullptr);
        std::ofstream(fs::path(p), std::ios::binary) << "not a journal at all";
    }
    auto j = ledger::HistoryJournal::open(d.str(), os::Workspace({root().real}), nullptr, h, c);
    CHECK_FALSE(j.ok());
}

TEST_CASE("history journal: a record of the wrong shape ends the replay there, without harm") {
    Dir d;
    std::string path;
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string v1 = "1\n";
        j->recorded(root()("a.txt"), "edit", true, "0\n", &v1);
    }
    {
        // "b" as a text string instead of bytes, then a good-looking record after it.
        const std::string bad = framed(nlohmann::json{
            {"t", "r"}, {"p", root()("b.txt")}, {"tool", "edit"}, {"e", true}, {"b", "text"}, {"a", nullptr}});
        std::ofstream(fs::path(path), std::ios::binary | std::ios::app) << bad << bad;
    }
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c);
    CHECK(j->replayed() == 2);  // the header and a.txt's change
    CHECK(h.depth(root()("a.txt")) == 1);
    CHECK(h.depth(root()("b.txt")) == 0);
}

TEST_CASE("history journal: a second server on the same roots runs without it, and says why") {
    Dir d;
    ledger::History h;
    ledger::SessionChanges c;
    auto first = open(d, h, c);
    ledger::History h2;
    ledger::SessionChanges c2;
    auto second = ledger::HistoryJournal::open(d.str(), os::Workspace({root().real}), nullptr, h2, c2);
    REQUIRE_FALSE(second.ok());
    CHECK_MESSAGE(second.error().message.find("another mcp-edit serving the same roots") != std::string::npos,
                  second.error().message);
    first.reset();
    CHECK(ledger::HistoryJournal::open(d.str(), os::Workspace({root().real}), nullptr, h2, c2)
              .ok());  // free again once the first is gone
}

#ifndef _WIN32
TEST_CASE("history journal: only its owner can read it (it holds the bytes of changed files)") {
    Dir d;
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c);
    j->based(root()("secret.txt"), true, "token=1\n");
    const auto mode = fs::status(j->path()).permissions();
    CHECK_MESSAGE((mode & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write),
                  "mode " << std::oct << static_cast<unsigned>(mode & fs::perms::all));
}
#endif

TEST_CASE(
    "history journal: a record of 200,000 nested arrays (or maps, or a huge declared length) ends the replay, no "
    "crash") {
    std::vector<std::uint8_t> arrays(200000, 0x81);  // [[[[...
    arrays.push_back(0xF6);
    std::vector<std::uint8_t> maps;
    for (int i = 0; i < 200000; ++i) maps.insert(maps.end(), {0xA1, 0x61, 'k'});  // {"k": {"k": ...
    maps.push_back(0xF6);
    const std::vector<std::uint8_t> huge_array = {0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const std::vector<std::uint8_t> huge_map = {0xBB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    std::vector<std::uint8_t> tags(200000, 0xC6);  // tag 6 on tag 6 on ...
    tags.push_back(0xF6);
    for (const std::vector<std::uint8_t>* bad :
         std::initializer_list<const std::vector<std::uint8_t>*>{&arrays, &maps, &huge_array, &huge_map, &tags}) {
        CHECK(ledger::HistoryJournal::decode_record(bad->data(), bad->size()).is_discarded());
        Dir d;
        std::string path;
        {
            ledger::History h;
            ledger::SessionChanges c;
            path = open(d, h, c)->path();
        }
        std::ofstream(fs::path(path), std::ios::binary | std::ios::app)
            << framed(*bad) << change_record(root()("a.txt"), "0\n", "1\n");
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c);
        CHECK(j->replayed() == 1);  // the header; the record after the bad one is not reached
        CHECK(h.depth(root()("a.txt")) == 0);
    }
    // A record as the journal writes it still decodes.
    const auto good = nlohmann::json::to_cbor(nlohmann::json{{"t", "u"}, {"p", "/x"}});
    CHECK(ledger::HistoryJournal::decode_record(good.data(), good.size()).at("t") == "u");
}

TEST_CASE(
    "history journal: records naming a path outside the roots, through a symlink, with .., or ignored are dropped") {
    Dir d;
    const Root& r = root();
    fs::create_directories(r.dir.path / "sub");
    std::error_code ignored_error;
    fs::create_symlink("/etc", r.dir.path / "etc-link", ignored_error);
    { std::ofstream(r.dir.path / ".mcp-editignore") << "secret.txt\n"; }
    std::string path;
    {
        ledger::History h;
        ledger::SessionChanges c;
        path = open(d, h, c)->path();
    }
    std::vector<std::string> refused = {"/etc/hostname", r("sub/../../etc/hostname"), r("secret.txt"), r(".git/config"),
                                        "relative.txt"};
    // Through a symlink: only where one could be made (Wine 8 makes none).
    if (fs::is_symlink(r.dir.path / "etc-link")) refused.push_back(r("etc-link/hostname"));
    {
        std::ofstream out(fs::path(path), std::ios::binary | std::ios::app);
        for (const auto& p : refused) out << base_record(p, "x\n") << change_record(p, "x\n", "y\n");
        out << base_record(r("ok.txt"), "a\n") << change_record(r("ok.txt"), "a\n", "b\n");
    }
    os::IgnoreFiles ignore(os::IgnoreSettings{});
    {
        ledger::History h;
        ledger::SessionChanges c;
        auto j = open(d, h, c, {}, &ignore);
        CHECK(j->replayed() == 1 + 2 * refused.size() + 2);  // all read, ...
        CHECK(j->dropped() == 2 * refused.size());           // ... the refused ones not taken
        for (const auto& p : refused) CHECK_MESSAGE(h.depth(p) == 0, p);
        CHECK(h.depth(r("ok.txt")) == 1);
        const auto files = c.files();
        REQUIRE(files.size() == 1);
        CHECK(files[0].real_path == r("ok.txt"));
    }
    // The journal was rewritten without them.
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c, {}, &ignore);
    CHECK(j->dropped() == 0);
    CHECK(j->replayed() == 3);
    fs::remove(r.dir.path / ".mcp-editignore");
}

#ifdef __linux__
TEST_CASE("history journal: its descriptor is close-on-exec") {
    Dir d;
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c);
    int found = 0;
    for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
        std::error_code e;
        const auto target = fs::read_symlink(entry.path(), e);
        if (e || target != fs::path(j->path())) continue;
        const int fd = std::stoi(entry.path().filename().string());
        ++found;
        CHECK((::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
    }
    CHECK(found == 1);
}

TEST_CASE("history journal: a check started while it is open sees descriptors 0, 1 and 2 only") {
    Dir d;
    ledger::History h;
    ledger::SessionChanges c;
    auto j = open(d, h, c);
    j->based(root()("a.txt"), true, "x\n");
    platform::ProcessRun run;
    run.argv = {"ls", "/proc/self/fd"};
    run.directory = "/";
    const auto out = platform::run_process(run);
    CHECK(out.exit_code == 0);
    CHECK(out.output == "0\n1\n2\n3\n");  // 3: the listing's own descriptor of /proc/self/fd
}
#endif
