// Unit tests of undo and the session patch over big files, whose history and session base are kept
// as deltas (issue 26): undo walks back byte for byte from the file on disk, the budget, its message.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"
#include "ledger/history.hpp"
#include "ledger/session_changes.hpp"
#include "ledger/session_patch.hpp"

using tools_test::Fixture;

namespace {

std::string text_of(const tools::ToolResult& r) { return r.text + r.extra_text; }

// A file over History::max_kept_after: CRLF lines, a BOM, UTF-8, no final newline (binary bytes: history.cpp).
std::string big_file() {
    std::string bytes =
        "\xEF\xBB\xBF"
        "first\r\n";
    while (bytes.size() <= ledger::History::max_kept_after + 4096) bytes += "row \xC3\xA9\t\r\n";
    return bytes + "last";
}

}  // namespace

TEST_CASE("undo of a big file: each step comes back byte for byte, from deltas only") {
    Fixture f;
    ledger::History history;
    ledger::SessionChanges changes;
    f.ctx.history = &history;
    f.ctx.session_changes = &changes;
    const std::string v0 = big_file();
    f.put("big.txt", v0);
    REQUIRE_FALSE(f.insert("big.txt", 0, "top").is_error);
    const std::string v1 = f.get("big.txt");
    REQUIRE_FALSE(f.insert("big.txt", -1, "bottom").is_error);
    const std::string v2 = f.get("big.txt");
    CHECK(v2 != v1);
    CHECK_FALSE(history.latest(f.path("big.txt"))->after_kept);  // no whole copy of what was written

    // The session patch rebuilds the base from the file as the server wrote it.
    const auto file = changes.find(f.path("big.txt"));
    REQUIRE(file);
    CHECK_FALSE(file->base);
    REQUIRE(file->delta);
    CHECK(file->base_given(&v2) == v0);
    const auto patch = ledger::session_patch(changes.files(), f.workspace, 1u << 30, false);
    CHECK(patch.files_differing == 1);
    CHECK(patch.text.find("# ") == std::string::npos);  // no note: the base was rebuilt

    REQUIRE_FALSE(f.call(tools::undo_handler(), {{"file_path", f.path("big.txt")}}).is_error);
    CHECK(f.get("big.txt") == v1);
    REQUIRE_FALSE(f.call(tools::undo_handler(), {{"file_path", f.path("big.txt")}}).is_error);
    CHECK(f.get("big.txt") == v0);
    CHECK(ledger::session_patch(changes.files(), f.workspace, 1u << 30, false).files_differing == 0);
}

TEST_CASE("undo of a big file changed since: refused, the file untouched, and the reason given") {
    Fixture f;
    ledger::History history;
    f.ctx.history = &history;
    f.put("big.txt", big_file());
    REQUIRE_FALSE(f.insert("big.txt", 0, "top").is_error);
    const std::string changed = f.get("big.txt") + "x";
    f.put("big.txt", changed);
    const auto r = f.call(tools::undo_handler(), {{"file_path", f.path("big.txt")}});
    CHECK(r.is_error);
    CHECK(text_of(r).find("changed since this server wrote it") != std::string::npos);
    CHECK(f.get("big.txt") == changed);
}

TEST_CASE("undo past the byte budget says the change is no longer undoable and why") {
    Fixture f;
    ledger::History history(4096);  // a step costs its replaced bytes, its kept after-image and 256: a few fit
    f.ctx.history = &history;
    f.put("a.txt", "start\n");
    for (int i = 0; i < 8; ++i) REQUIRE_FALSE(f.insert("a.txt", 0, std::string(300, 'a' + i)).is_error);
    CHECK(history.evicted(f.path("a.txt")) > 0);
    std::string last;
    for (int i = 0; i < 9; ++i) {
        const auto r = f.call(tools::undo_handler(), {{"file_path", f.path("a.txt")}});
        if (r.is_error) {
            last = text_of(r);
            break;
        }
    }
    CHECK(last.find("no longer undoable") != std::string::npos);
    CHECK(last.find("--history-budget") != std::string::npos);
}
