// Unit tests of ledger/history_journal read as input, not trust: a record of the wrong shape (or a
// mode or partner of the wrong shape) ends the replay without harm, deep nesting is refused without a
// crash, and records naming paths outside the roots, through a symlink, or ignored are not replayed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "ledger/history_journal.hpp"
#include "tests/unit/ledger/history_journal_fixture.hpp"

namespace journal_test {

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

}  // namespace journal_test
