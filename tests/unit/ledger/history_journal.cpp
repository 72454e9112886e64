// Unit tests of ledger/history_journal: changes, undos and session bases written, read back into a
// fresh History and SessionChanges; a record cut short by a crash dropped (the earlier ones
// kept); a journal that holds more than was kept rewritten compactly; journals kept per roots; a
// second server on the same journal is kept out; only its owner reads it; its descriptor is
// close-on-exec. The journal as untrusted input: history_journal_untrusted.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tools/handlers/file_moves.hpp"
#include "ledger/history_journal.hpp"
#include "os/process.hpp"
#include "tests/unit/ledger/history_journal_fixture.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

namespace journal_test {

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
    os::ProcessRun run;
    run.argv = {"ls", "/proc/self/fd"};
    run.directory = "/";
    const auto out = os::run_process(run);
    CHECK(out.exit_code == 0);
    CHECK(out.output == "0\n1\n2\n3\n");  // 3: the listing's own descriptor of /proc/self/fd
}
#endif

}  // namespace journal_test
