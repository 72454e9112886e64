// Unit tests of the transaction: the write path (platform staging + a transaction's commit) keeps
// mode and owner, symlinks and hard links, leaves no temp files, with both fsync settings, creates
// new files with their folders, and re-checks before writing over a file changed since it was
// read; a list of files commits all or nothing; a refused approval writes nothing; a folder lock
// another process holds is waited for on a timer (the io thread goes on), a cancellation during
// that wait writes nothing, and a wait too long names the holder (issue 39, items 10 and 11).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#ifndef _WIN32
#include <algorithm>
#include <utility>
#include <vector>

#include <chrono>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

#include "tests/unit/os/folder_lock_holder_posix.hpp"
#endif

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

namespace {

// Commits `new_bytes` over the file `before` describes (or creates it): a transaction of one file,
// without lanes or approval, run to its end on the fixture's context.
base::Result<void> commit_file(Fixture& f, const tools::FileSnapshot& before, std::string new_bytes) {
    tools::Transaction change("test", {});
    change.changes().push_back({before, std::move(new_bytes), false});
    std::optional<base::Failure> failure;
    bool done = false;
    asio::co_spawn(
        f.io,
        [&]() -> asio::awaitable<void> {
            auto written = co_await change.commit(f.ctx);
            if (!written) failure = written.error().failure;
            done = true;
        },
        [](std::exception_ptr error) {
            if (error) std::rethrow_exception(error);
        });
    f.io.restart();
    f.io.run();
    REQUIRE(done);
    if (failure) return base::fail(std::move(*failure));
    return {};
}

}  // namespace

// POSIX modes, symlinks, hard links and owners. On Windows the read-only attribute, long paths and
// files held open are tested in tests/unit/os/platform_windows.cpp.
#ifndef _WIN32

TEST_CASE("commit replaces the bytes, keeps the mode, leaves no temp file") {
    for (bool sync : {false, true}) {
        CAPTURE(sync);
        Fixture f(sync);
        f.put("run.sh", "#!/bin/sh\r\necho old\r\n");
        ::chmod((f.root / "run.sh").c_str(), 0751);
        auto before = f.snapshot("run.sh");
        CHECK(commit_file(f, before, "#!/bin/sh\r\necho new\r\n").ok());
        CHECK(f.get("run.sh") == "#!/bin/sh\r\necho new\r\n");
        struct stat st {};
        REQUIRE(::stat((f.root / "run.sh").c_str(), &st) == 0);
        CHECK((st.st_mode & 07777) == 0751);
        CHECK(f.entries() == 1);
    }
}

TEST_CASE("commit through a symlink changes the target and keeps the link") {
    Fixture f;
    f.put("real/target.txt", "old\n");
    fs::create_symlink(f.root / "real" / "target.txt", f.root / "link.txt");
    auto before = f.snapshot("link.txt");
    CHECK(before.file.path.real == (f.root / "real" / "target.txt").string());
    CHECK(commit_file(f, before, "new\n").ok());
    CHECK(fs::is_symlink(f.root / "link.txt"));
    CHECK(f.get("real/target.txt") == "new\n");
}

TEST_CASE("commit gives a file with another name a file of its own; the other name keeps its bytes") {
    Fixture f;
    f.put("a.txt", "shared old\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    auto before = f.snapshot("a.txt");
    CHECK(commit_file(f, before, "new\n").ok());
    CHECK(f.get("a.txt") == "new\n");
    CHECK(f.get("b.txt") == "shared old\n");
#ifndef _WIN32  // Wine counts every file's links as 1
    CHECK(fs::hard_link_count(f.root / "a.txt") == 1);
    CHECK(fs::hard_link_count(f.root / "b.txt") == 1);
#endif
}

TEST_CASE("commit with --write-through-hard-links keeps hard links linked") {
    Fixture f;
    f.settings.write_through_hard_links = true;
    f.put("a.txt", "shared old\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    auto before = f.snapshot("a.txt");
    CHECK(commit_file(f, before, "shared new, longer than before\n").ok());
    CHECK(f.get("b.txt") == "shared new, longer than before\n");
    CHECK(fs::hard_link_count(f.root / "a.txt") == 2);
    auto again = f.snapshot("b.txt");
    CHECK(commit_file(f, again, "short\n").ok());
    CHECK(f.get("a.txt") == "short\n");
    CHECK(f.entries() == 2);
}

namespace {

// The owner a test file can be given that differs from what a new file of this process gets: as
// root, 1234:4321; as another user, itself and another of its groups. nullopt when there is none
// (a user in one group only): the owner test is then reported skipped, not passed.
std::optional<std::pair<uid_t, gid_t>> other_owner() {
    if (::geteuid() == 0) return std::pair<uid_t, gid_t>{1234, 4321};
    std::vector<gid_t> groups(static_cast<std::size_t>(std::max(::getgroups(0, nullptr), 0)));
    const int count = ::getgroups(static_cast<int>(groups.size()), groups.data());
    for (int i = 0; i < count; ++i)
        if (groups[static_cast<std::size_t>(i)] != ::getegid())
            return std::pair<uid_t, gid_t>{::geteuid(), groups[static_cast<std::size_t>(i)]};
    return std::nullopt;
}

}  // namespace

TEST_CASE("commit keeps the owner when permitted (skipped for a user with no second group)" *
          doctest::skip(!other_owner()) *
          doctest::description("not root, and this user has no second group to give a file")) {
    const auto [uid, gid] = other_owner().value();
    Fixture f;
    f.put("owned.txt", "x\n");
    REQUIRE(::chown((f.root / "owned.txt").c_str(), uid, gid) == 0);
    auto before = f.snapshot("owned.txt");
    CHECK(commit_file(f, before, "y\n").ok());
    struct stat st {};
    REQUIRE(::stat((f.root / "owned.txt").c_str(), &st) == 0);
    CHECK(st.st_uid == uid);
    CHECK(st.st_gid == gid);
}

#endif  // _WIN32

TEST_CASE("commit creates a new file and its folders") {
    Fixture f;
    auto before = f.snapshot("deep/er/new.txt");
    CHECK_FALSE(before.exists);
    CHECK(commit_file(f, before, "fresh\n").ok());
    CHECK(f.get("deep/er/new.txt") == "fresh\n");
}

TEST_CASE("commit refuses when the file changed since it was read, and shows how") {
    Fixture f;
    f.put("c.txt", "one\ntwo\n");
    auto before = f.snapshot("c.txt");
    f.put("c.txt", "one\nTWO by someone else\n");
    const auto written = commit_file(f, before, "one\ntwo\nthree\n");
    REQUIRE_FALSE(written.ok());
    const std::string& error = written.error().message;
    CHECK(written.error().reason == base::ErrorReason::conflict);
    CHECK(error.find("Nothing was written") != std::string::npos);
    CHECK(error.find("+TWO by someone else") != std::string::npos);
    CHECK(f.get("c.txt") == "one\nTWO by someone else\n");
    CHECK(f.entries() == 1);
}

TEST_CASE("commit accepts a file whose timestamps changed but whose bytes did not") {
    Fixture f;
    f.put("d.txt", "same\n");
    auto before = f.snapshot("d.txt");
    const auto later = fs::last_write_time(f.root / "d.txt") + std::chrono::seconds(5);
    fs::last_write_time(f.root / "d.txt", later);
    CHECK(commit_file(f, before, "changed\n").ok());
    CHECK(f.get("d.txt") == "changed\n");
}

TEST_CASE("commit refuses a new file that appeared meanwhile") {
    Fixture f;
    auto before = f.snapshot("e.txt");
    f.put("e.txt", "someone else's\n");
    const auto written = commit_file(f, before, "mine\n");
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().message.find("created by another program") != std::string::npos);
    CHECK(f.get("e.txt") == "someone else's\n");
}

namespace {

// Runs `work` (a coroutine over the fixture's context) to its end.
template <class T>
T run(Fixture& f, std::function<asio::awaitable<T>()> work) {
    std::optional<T> out;
    asio::co_spawn(f.io, std::move(work), [&out](std::exception_ptr error, T value) {
        if (error) std::rethrow_exception(error);
        out.emplace(std::move(value));
    });
    f.io.restart();
    f.io.run();
    REQUIRE(out.has_value());
    return std::move(*out);
}

tools::ApprovalGate gate(tools::ApprovalDecision::Kind kind, std::string message = "") {
    return [kind, message](const tools::ApprovalRequest&) -> asio::awaitable<tools::ApprovalDecision> {
        tools::ApprovalDecision d;
        d.kind = kind;
        d.approval = tools::ApprovalSource::user;
        d.message = message;
        co_return d;
    };
}

}  // namespace

TEST_CASE("transaction: a list of two files where one fails the re-check writes neither") {
    Fixture f;
    f.put("a.txt", "a old\n");
    f.put("b.txt", "b old\n");
    tools::Transaction change("test", {});
    change.changes().push_back({f.snapshot("a.txt"), "a new\n", false});
    change.changes().push_back({f.snapshot("b.txt"), "b new\n", false});
    f.put("b.txt", "b changed by another program\n");
    const bool ok = run<bool>(f, [&]() -> asio::awaitable<bool> {
        auto written = co_await change.commit(f.ctx);
        if (!written) CHECK(written.error().failure.reason == base::ErrorReason::conflict);
        co_return written.ok();
    });
    CHECK_FALSE(ok);
    CHECK(f.get("a.txt") == "a old\n");
    CHECK(f.get("b.txt") == "b changed by another program\n");
    CHECK(f.entries() == 2);  // no temp file left
}

TEST_CASE("transaction: a list of two files commits both, a creation among them") {
    Fixture f;
    f.put("a.txt", "a old\n");
    tools::Transaction change("test", {});
    change.changes().push_back({f.snapshot("a.txt"), "a new\n", false});
    change.changes().push_back({f.snapshot("sub/b.txt"), "b new\n", false});
    CHECK(run<bool>(f, [&]() -> asio::awaitable<bool> { co_return (co_await change.commit(f.ctx)).ok(); }));
    CHECK(f.get("a.txt") == "a new\n");
    CHECK(f.get("sub/b.txt") == "b new\n");
}

TEST_CASE("transaction: a refused approval writes nothing, for one file and for a patch of two") {
    Fixture f;
    f.put("a.txt", "one\n");
    f.put("b.txt", "two\n");
    f.ctx.approve = gate(tools::ApprovalDecision::Kind::rejected, "The user rejected the change.");
    auto edit =
        f.call(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "one"}, {"new_string", "ONE"}});
    CHECK(edit.is_error);
    CHECK(edit.text == "The user rejected the change.");
    CHECK(f.get("a.txt") == "one\n");
    auto patch = f.call(tools::apply_diff_handler(), {{"diff",
                                                       "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n"
                                                       "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+TWO\n"}});
    CHECK(patch.is_error);
    CHECK(f.get("a.txt") == "one\n");
    CHECK(f.get("b.txt") == "two\n");
    CHECK(f.entries() == 2);
}

TEST_CASE("transaction: an approved patch of two files writes both and records both for undo") {
    Fixture f;
    ledger::History history;
    f.ctx.history = &history;
    f.put("a.txt", "one\n");
    f.put("b.txt", "two\n");
    f.ctx.approve = gate(tools::ApprovalDecision::Kind::approved);
    auto patch = f.call(tools::apply_diff_handler(), {{"diff",
                                                       "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n"
                                                       "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+TWO\n"}});
    CHECK_FALSE(patch.is_error);
    CHECK(f.get("a.txt") == "ONE\n");
    CHECK(f.get("b.txt") == "TWO\n");
    CHECK(history.depth(f.path("a.txt")) == 1);
    CHECK(history.depth(f.path("b.txt")) == 1);
    CHECK(f.states.known_hash(f.path("b.txt")).has_value());
}

#ifndef _WIN32

namespace {

// A commit of `before` -> `new_bytes` run while a ticker on the same io thread ticks every 5 ms:
// `on_tick(n)` runs at tick n (to release a lock holder, to cancel). What came of it, and the
// longest the io thread left the ticker waiting.
struct TickedCommit {
    std::optional<base::Failure> failure;
    std::chrono::milliseconds longest_gap{0};
    std::chrono::milliseconds took{0};
};
TickedCommit commit_while_ticking(Fixture& f, const tools::FileSnapshot& before, std::string new_bytes,
                                  const std::function<void(int)>& on_tick) {
    tools::Transaction change("test", {});
    change.changes().push_back({before, std::move(new_bytes), false});
    TickedCommit out;
    bool done = false;
    const auto started = std::chrono::steady_clock::now();
    asio::co_spawn(
        f.io,
        [&]() -> asio::awaitable<void> {
            auto written = co_await change.commit(f.ctx);
            if (!written) out.failure = written.error().failure;
            done = true;
        },
        [](std::exception_ptr error) {
            if (error) std::rethrow_exception(error);
        });
    asio::co_spawn(
        f.io,
        [&]() -> asio::awaitable<void> {
            asio::steady_timer timer(co_await asio::this_coro::executor);
            auto last = std::chrono::steady_clock::now();
            for (int tick = 1; !done && tick < 2000; ++tick) {  // 10 s at most
                timer.expires_after(std::chrono::milliseconds(5));
                co_await timer.async_wait(asio::use_awaitable);
                const auto now = std::chrono::steady_clock::now();
                out.longest_gap =
                    std::max(out.longest_gap, std::chrono::duration_cast<std::chrono::milliseconds>(now - last));
                last = now;
                on_tick(tick);
            }
        },
        [](std::exception_ptr error) {
            if (error) std::rethrow_exception(error);
        });
    f.io.restart();
    f.io.run();
    REQUIRE(done);
    out.took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    return out;
}

bool staging_files_left(const Fixture& f) {
    for (const auto& entry : fs::directory_iterator(f.root))
        if (entry.path().filename().string().rfind(".mcp-edit-stage-", 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("transaction: another process's folder lock is waited for on a timer; the io thread goes on serving") {
    Fixture f;
    f.put("a.txt", "one\n");
    auto before = f.snapshot("a.txt");
    lock_test::LockHolder holder(f.root.string());
    // The holder lets go after ~300 ms (60 ticks); until then the commit waits, and the io thread
    // must go on ticking (issue 39, item 11: it slept in flock's retry loop for up to 30 s).
    const auto done = commit_while_ticking(f, before, "two\n", [&holder](int tick) {
        if (tick == 60) holder.release();
    });
    MESSAGE("waited " << done.took.count() << " ms for the holder; the io thread's longest gap meanwhile: "
                      << done.longest_gap.count() << " ms");
    CHECK_FALSE(done.failure.has_value());
    CHECK(done.took >= std::chrono::milliseconds(250));  // it did wait for the holder
    CHECK(done.longest_gap < std::chrono::milliseconds(200));
    CHECK(f.get("a.txt") == "two\n");
    CHECK(f.entries() == 1);  // the killed holder's lock file was taken over and removed, no temp file left
}

TEST_CASE("transaction: a commit cancelled while it waits for a folder lock writes nothing once the lock is freed") {
    for (const bool together : {false, true}) {
        // Cancelled, then the lock freed later; or both in the same moment (the lock is then taken,
        // and the cancellation is seen after it, before the first rename).
        CAPTURE(together);
        Fixture f;
        f.put("a.txt", "one\n");
        auto before = f.snapshot("a.txt");
        lock_test::LockHolder holder(f.root.string());
        const auto done = commit_while_ticking(f, before, "two\n", [&](int tick) {
            if (tick == 20) f.ctx.scope.cancelled->store(true);
            if (tick == (together ? 20 : 40)) holder.release();
        });
        REQUIRE(done.failure.has_value());
        CHECK(done.failure->reason == base::ErrorReason::cancelled);
        CHECK(done.failure->message == "Cancelled by the client; nothing was written.");
        CHECK(done.took < std::chrono::seconds(2));
        CHECK(f.get("a.txt") == "one\n");
        CHECK_FALSE(staging_files_left(f));
    }
}

TEST_CASE("transaction: a folder lock held past the limit fails the commit naming the holder; nothing written") {
    Fixture f;
    f.put("a.txt", "one\n");
    auto before = f.snapshot("a.txt");
    f.settings.limits.folder_lock_wait = std::chrono::milliseconds(300);
    lock_test::LockHolder holder(f.root.string());
    holder.stop();  // a second server stopped with SIGSTOP while it held the lock
    const auto done = commit_while_ticking(f, before, "two\n", [](int) {});
    REQUIRE(done.failure.has_value());
    CHECK(done.failure->reason == base::ErrorReason::timeout);
    const std::string& message = done.failure->message;
    CAPTURE(message);
    CHECK(has(message, "Nothing was written: the lock of the folder " + f.root.string() +
                           " (which mcp-edit servers take for "
                           "the milliseconds of a write there) was held by "));
#ifdef __linux__
    const std::string pid = std::to_string(holder.pid());
    CHECK(has(message, "by process " + pid + " (lock-holder, user "));
    CHECK(has(message, "stopped: `kill -CONT " + pid + "` resumes it) for over 0."));
#endif
    CHECK(has(message, "resume or end it; then call again."));
    CHECK_FALSE(has(message, "another mcp-edit process"));
    CHECK(done.longest_gap < std::chrono::milliseconds(200));
    CHECK(f.get("a.txt") == "one\n");
    CHECK_FALSE(staging_files_left(f));
}

TEST_CASE(
    "transaction: a process that can only read the folder (an flock on the folder itself) does not stall a commit") {
    Fixture f;
    f.put("a.txt", "one\n");
    auto before = f.snapshot("a.txt");
    f.settings.limits.folder_lock_wait = std::chrono::milliseconds(2000);
    const int reader = ::open(f.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(reader >= 0);
    REQUIRE(::flock(reader, LOCK_EX | LOCK_NB) == 0);
    const auto done = commit_while_ticking(f, before, "two\n", [](int) {});
    ::close(reader);
    CHECK_FALSE(done.failure.has_value());
    CHECK(done.took < std::chrono::milliseconds(1000));
    CHECK(f.get("a.txt") == "two\n");
}

#endif  // _WIN32
