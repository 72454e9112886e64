// Unit tests of tools/history_journal: changes, undos and session bases written, read back into a
// fresh History and SessionChanges; a record cut short by a crash dropped (the earlier ones
// kept); a journal that holds more than was kept rewritten compactly; journals kept per roots; a
// record of the wrong shape ends the replay; a second server on the same journal is kept out.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tools/history_journal.hpp"

namespace fs = std::filesystem;
using tools::History;
using tools::HistoryJournal;
using tools::SessionChanges;

namespace {

struct Dir {
    fs::path path = fs::temp_directory_path() / ("mcp-edit-journal-" + std::to_string(std::rand()));
    ~Dir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string str() const { return path.generic_string(); }
};

std::unique_ptr<HistoryJournal> open(const Dir& d, History& h, SessionChanges& c, std::vector<std::string> roots = {"/r"}) {
    auto j = HistoryJournal::open(d.str(), roots, h, c);
    REQUIRE_MESSAGE(j.ok(), (j.ok() ? "" : j.error().message));
    return std::move(j).value();
}

}  // namespace

TEST_CASE("history journal: a restart finds the undo steps and the session's bases") {
    Dir d;
    {
        History h;
        SessionChanges c;
        auto j = open(d, h, c);
        const std::string v1 = "one\n", v2 = "two\n", v3 = "three\n";
        j->based("/r/a.txt", true, "zero\n");
        j->recorded("/r/a.txt", "edit", true, "zero\n", &v1);
        j->recorded("/r/a.txt", "edit", true, v1, &v2);
        j->recorded("/r/a.txt", "edit", true, v2, &v3);
        j->popped("/r/a.txt");
        j->based("/r/new.txt", false, "");
        const std::string fresh = "fresh\n";
        j->recorded("/r/new.txt", "write", false, "", &fresh);
        j->recorded("/r/gone.txt", "apply_diff", true, "bye\n", nullptr);
    }
    History h;
    SessionChanges c;
    auto j = open(d, h, c);
    CHECK(j->replayed() == 9);
    REQUIRE(h.depth("/r/a.txt") == 2);
    const auto latest = h.latest("/r/a.txt");
    CHECK(latest->before == "one\n");
    CHECK(latest->after == "two\n");
    CHECK(h.latest("/r/new.txt")->existed == false);
    CHECK_FALSE(h.latest("/r/gone.txt")->after_fingerprint);
    const auto files = c.files();
    REQUIRE(files.size() == 2);
    CHECK(files[0].real_path == "/r/a.txt");
    CHECK(*files[0].base == "zero\n");
    CHECK(files[0].changes == 4);
    CHECK_FALSE(files[1].existed);
}

TEST_CASE("history journal: a record cut short is dropped, the ones before it count; other roots have their own") {
    Dir d;
    std::string path;
    {
        History h;
        SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string v1 = "1\n", v2 = "2\n";
        j->recorded("/r/a.txt", "edit", true, "0\n", &v1);
        j->recorded("/r/a.txt", "edit", true, v1, &v2);
    }
    fs::resize_file(path, fs::file_size(path) - 3);  // the crash hit the last record
    {
        History h;
        SessionChanges c;
        auto j = open(d, h, c);
        CHECK(h.depth("/r/a.txt") == 1);
        CHECK(h.latest("/r/a.txt")->after == "1\n");
    }
    History h;
    SessionChanges c;
    auto other = open(d, h, c, {"/elsewhere"});
    CHECK(other->path() != path);
    CHECK(h.depth("/r/a.txt") == 0);
}

TEST_CASE("history journal: what was undone or evicted is written out when the journal is rewritten") {
    Dir d;
    std::string path;
    {
        History h;
        SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string big(100000, 'x');
        for (int i = 0; i < 20; ++i) {
            j->recorded("/r/a.txt", "edit", true, big, &big);
            j->popped("/r/a.txt");
        }
    }
    const auto before = fs::file_size(path);
    History h;
    SessionChanges c;
    open(d, h, c);
    CHECK(fs::file_size(path) < before / 10);
    CHECK(h.depth("/r/a.txt") == 0);
    History again;
    SessionChanges c2;
    auto j = open(d, again, c2);
    CHECK(j->replayed() == 1);  // the header only
}

TEST_CASE("history journal: a file that is not a journal is not touched") {
    Dir d;
    fs::create_directories(d.path);
    History h;
    SessionChanges c;
    {
        auto j = HistoryJournal::open(d.str(), {"/r"}, h, c);
        REQUIRE(j.ok());
        const std::string p = j.value()->path();
        j = base::Result<std::unique_ptr<HistoryJournal>>(nullptr);
        std::ofstream(fs::path(p), std::ios::binary) << "not a journal at all";
    }
    auto j = HistoryJournal::open(d.str(), {"/r"}, h, c);
    CHECK_FALSE(j.ok());
}

TEST_CASE("history journal: a record of the wrong shape ends the replay there, without harm") {
    Dir d;
    std::string path;
    {
        History h;
        SessionChanges c;
        auto j = open(d, h, c);
        path = j->path();
        const std::string v1 = "1\n";
        j->recorded("/r/a.txt", "edit", true, "0\n", &v1);
    }
    {
        // "b" as a text string instead of bytes, then a good-looking record after it.
        const auto cbor = nlohmann::json::to_cbor(nlohmann::json{{"t", "r"}, {"p", "/r/b.txt"}, {"tool", "edit"}, {"e", true}, {"b", "text"}, {"a", nullptr}});
        std::string framed(4, '\0');
        for (int i = 0; i < 4; ++i) framed[static_cast<std::size_t>(i)] = static_cast<char>((cbor.size() >> (8 * i)) & 0xFF);
        framed.append(cbor.begin(), cbor.end());
        std::ofstream(fs::path(path), std::ios::binary | std::ios::app) << framed << framed;
    }
    History h;
    SessionChanges c;
    auto j = open(d, h, c);
    CHECK(j->replayed() == 2);  // the header and a.txt's change
    CHECK(h.depth("/r/a.txt") == 1);
    CHECK(h.depth("/r/b.txt") == 0);
}

TEST_CASE("history journal: a second server on the same roots runs without it, and says why") {
    Dir d;
    History h;
    SessionChanges c;
    auto first = open(d, h, c);
    History h2;
    SessionChanges c2;
    auto second = HistoryJournal::open(d.str(), {"/r"}, h2, c2);
    REQUIRE_FALSE(second.ok());
    CHECK_MESSAGE(second.error().message.find("another mcp-edit serving the same roots") != std::string::npos, second.error().message);
    first.reset();
    CHECK(HistoryJournal::open(d.str(), {"/r"}, h2, c2).ok());  // free again once the first is gone
}

#ifndef _WIN32
TEST_CASE("history journal: only its owner can read it (it holds the bytes of changed files)") {
    Dir d;
    History h;
    SessionChanges c;
    auto j = open(d, h, c);
    j->based("/r/secret.txt", true, "token=1\n");
    const auto mode = fs::status(j->path()).permissions();
    CHECK_MESSAGE((mode & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write),
                  "mode " << std::oct << static_cast<unsigned>(mode & fs::perms::all));
}
#endif
