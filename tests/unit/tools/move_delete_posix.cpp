// The move and delete tools and undo of both: bytes and mode kept, the refusals (exists, unread,
// folders, symlinks, ignored, outside the roots), the approval declined, lanes, the session patch.
// POSIX only (modes and symlinks); on Windows tests/transcripts/move_delete.jsonl runs under Wine.
#include <doctest/doctest.h>

#ifndef _WIN32  // modes and symlinks as POSIX has them

#include <cstdlib>

#include <sys/stat.h>

#include "tests/unit/tools/fixture.hpp"
#include "os/ignore_files.hpp"
#include "ledger/history.hpp"
#include "ledger/session_changes.hpp"
#include "ledger/session_patch.hpp"

namespace {

using tools::Json;
using tools_test::Fixture;
using tools_test::has;

struct MoveFixture : Fixture {
    ledger::History history;
    ledger::SessionChanges changes;
    os::IgnoreFiles ignore{os::IgnoreSettings{}};
    MoveFixture() {
        ctx.ignore = &ignore;
        ctx.history = &history;
        ctx.session_changes = &changes;
    }
    tools::ToolResult move(const std::string& from, const std::string& to, Json extra = Json::object()) {
        Json args = {{"from", from}, {"to", to}};
        for (auto& [k, v] : extra.items()) args[k] = v;
        return call(tools::move_handler(), args);
    }
    tools::ToolResult remove(const std::string& name, bool dry = false) {
        return call(tools::delete_handler(), {{"file_path", name}, {"dry_run", dry}});
    }
    tools::ToolResult undo(const std::string& name) { return call(tools::undo_handler(), {{"file_path", name}}); }
    unsigned mode(const std::string& name) const {
        struct stat st {};
        REQUIRE(::stat(path(name).c_str(), &st) == 0);
        return st.st_mode & 07777;
    }
    std::string patch() { return ledger::session_patch(changes.files(), workspace, 1u << 30, false).text; }
};

tools::ApprovalGate rejecting() {
    return [](const tools::ApprovalRequest&) -> asio::awaitable<tools::ApprovalDecision> {
        tools::ApprovalDecision d;
        d.kind = tools::ApprovalDecision::Kind::rejected;
        d.message = "The user rejected the change.";
        co_return d;
    };
}

}  // namespace

TEST_CASE("move: CRLF and non-UTF-8 bytes and the mode moved exactly; shown as a git rename; undo moves it back") {
    MoveFixture f;
    const std::string bytes = "one\r\ntwo \xff\xfe\r\nno newline";
    f.put("a.txt", bytes);
    REQUIRE(::chmod(f.path("a.txt").c_str(), 0751) == 0);
    const auto moved = f.move("a.txt", "sub/dir/b.txt");
    INFO(moved.text);
    REQUIRE(!moved.is_error);
    CHECK(!tools_test::fs::exists(f.root / "a.txt"));
    CHECK(f.get("sub/dir/b.txt") == bytes);
    CHECK(f.mode("sub/dir/b.txt") == 0751);
    CHECK(
        has(moved.text,
            "diff --git a/a.txt b/sub/dir/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to sub/dir/b.txt\n"));
    CHECK(moved.structured["moved_from"] == f.path("a.txt"));
    CHECK(moved.structured["file_path"] == f.path("sub/dir/b.txt"));
    CHECK(moved.structured["additions"] == 0);
    CHECK(moved.structured["overwritten"] == false);
    // The session patch: one rename, no content lines.
    CHECK(f.patch() ==
          "diff --git a/a.txt b/sub/dir/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to sub/dir/b.txt\n");

    const auto undone = f.undo("sub/dir/b.txt");
    INFO(undone.text);
    REQUIRE(!undone.is_error);
    CHECK(f.get("a.txt") == bytes);
    CHECK(f.mode("a.txt") == 0751);
    CHECK(!tools_test::fs::exists(f.root / "sub/dir/b.txt"));
    CHECK(f.patch() == "");
    CHECK(f.undo("a.txt").is_error);  // nothing left to undo
}

TEST_CASE("move: undo named by the old path moves it back too") {
    MoveFixture f;
    f.put("a.txt", "x\n");
    REQUIRE(!f.move("a.txt", "b.txt").is_error);
    REQUIRE(!f.undo("a.txt").is_error);
    CHECK(f.get("a.txt") == "x\n");
    CHECK(!tools_test::fs::exists(f.root / "b.txt"));
}

TEST_CASE("move: an existing destination is refused unless overwrite, which needs it read; undo restores both") {
    MoveFixture f;
    f.put("a.txt", "new\n");
    f.put("b.txt", "old\n");
    const auto refused = f.move("a.txt", "b.txt");
    CHECK(refused.is_error);
    CHECK(has(refused.text, "already exists"));
    CHECK(has(refused.text, "overwrite: true"));
    const auto unread = f.move("a.txt", "b.txt", {{"overwrite", true}});
    CHECK(unread.is_error);
    CHECK(has(unread.text, "read"));
    CHECK(f.get("b.txt") == "old\n");
    CHECK(f.get("a.txt") == "new\n");

    REQUIRE(!f.read("b.txt").is_error);
    REQUIRE(::chmod(f.path("a.txt").c_str(), 0600) == 0);
    REQUIRE(::chmod(f.path("b.txt").c_str(), 0644) == 0);
    const auto moved = f.move("a.txt", "b.txt", {{"overwrite", true}});
    INFO(moved.text);
    REQUIRE(!moved.is_error);
    CHECK(moved.structured["overwritten"] == true);
    // The moved file keeps its mode over the one it replaced, as the result says (issue 39).
    CHECK(has(moved.text, "mode (600) are kept"));
    CHECK(f.mode("b.txt") == 0600);
    CHECK(has(moved.text, "-old"));
    CHECK(has(moved.text, "+new"));
    CHECK(f.get("b.txt") == "new\n");
    CHECK(!tools_test::fs::exists(f.root / "a.txt"));
    REQUIRE(!f.undo("b.txt").is_error);
    CHECK(f.get("b.txt") == "old\n");
    CHECK(f.get("a.txt") == "new\n");
    CHECK(f.mode("a.txt") == 0600);
}

TEST_CASE("move: into an existing folder; folders, symlinks, ignored and outside paths refused") {
    MoveFixture f;
    f.put("a.txt", "a\n");
    f.put("dir/keep.txt", "k\n");
    REQUIRE(!f.move("a.txt", "dir").is_error);
    CHECK(f.get("dir/a.txt") == "a\n");

    const auto folder = f.move("dir", "elsewhere");
    CHECK(folder.is_error);
    CHECK(has(folder.text, "is a folder"));
    CHECK(tools_test::fs::exists(f.root / "dir/keep.txt"));

    tools_test::fs::create_symlink(f.root / "dir/keep.txt", f.root / "link.txt");
    const auto link = f.move("link.txt", "moved.txt");
    CHECK(link.is_error);
    CHECK(has(link.text, "symbolic link"));
    CHECK(f.get("dir/keep.txt") == "k\n");

    const auto outside = f.move("dir/keep.txt", "/tmp/mcp-edit-outside-move.txt");
    CHECK(outside.is_error);
    CHECK(outside.reason == base::ErrorReason::outside_root);
    CHECK(has(outside.text, "outside the allowed roots"));
    CHECK(f.get("dir/keep.txt") == "k\n");
    CHECK(!tools_test::fs::exists("/tmp/mcp-edit-outside-move.txt"));

    f.put(".git/config", "[core]\n");
    CHECK(f.move(".git/config", "config").is_error);
    CHECK(f.move("dir/keep.txt", ".git/keep.txt").is_error);
    CHECK(f.get(".git/config") == "[core]\n");
    f.put(".mcp-editignore", "secret*\n");
    f.put("secret.txt", "s\n");
    const auto ignored = f.move("secret.txt", "public.txt");
    CHECK(ignored.is_error);
    CHECK(has(ignored.text, "secret*"));
    CHECK(f.move("dir/keep.txt", "secret2.txt").is_error);
    REQUIRE(!f.read("secret.txt").is_error);
    CHECK(f.remove("secret.txt").is_error);
    CHECK(f.get("secret.txt") == "s\n");
    CHECK(f.get("dir/keep.txt") == "k\n");

    const auto missing = f.move("nope.txt", "b.txt");
    CHECK(missing.is_error);
    CHECK(has(missing.text, "does not exist"));
}

TEST_CASE("move and delete: a dry run and a declined approval change nothing") {
    MoveFixture f;
    f.put("a.txt", "a\n");
    const auto dry = f.move("a.txt", "b.txt", {{"dry_run", true}});
    REQUIRE(!dry.is_error);
    CHECK(dry.structured["approval"] == "none");
    CHECK(has(dry.text, "rename from a.txt"));
    CHECK(f.get("a.txt") == "a\n");
    CHECK(!tools_test::fs::exists(f.root / "b.txt"));

    REQUIRE(!f.read("a.txt").is_error);
    f.ctx.approve = rejecting();
    CHECK(f.move("a.txt", "b.txt").is_error);
    CHECK(f.remove("a.txt").is_error);
    CHECK(f.get("a.txt") == "a\n");
    CHECK(!tools_test::fs::exists(f.root / "b.txt"));
    CHECK(f.history.depth(f.path("a.txt")) == 0);
}

TEST_CASE(
    "edit, delete and undo of files whose names are 240 to 255 bytes long (issue 39: the temp name made them fail)") {
    MoveFixture f;
    // 80 CJK characters (240 bytes of UTF-8), and an ASCII name of 255 bytes.
    std::string cjk;
    for (int i = 0; i < 80; ++i) cjk += "\xe5\x90\x8d";
    for (const std::string& name : {cjk, std::string(251, 'n') + ".txt"}) {
        CAPTURE(name.size());
        f.put(name, "one\n");
        REQUIRE(!f.read(name).is_error);
        const auto edited =
            f.call(tools::edit_handler(), {{"file_path", name}, {"old_string", "one"}, {"new_string", "two"}});
        INFO(edited.text);
        REQUIRE(!edited.is_error);
        CHECK(f.get(name) == "two\n");
        const auto deleted = f.remove(name);
        INFO(deleted.text);
        REQUIRE(!deleted.is_error);
        CHECK(!tools_test::fs::exists(f.root / name));
        const auto undone = f.undo(name);
        INFO(undone.text);
        REQUIRE(!undone.is_error);
        CHECK(f.get(name) == "two\n");
    }
}

TEST_CASE("delete: needs a read; shows every line removed; undo recreates it byte for byte with its mode") {
    MoveFixture f;
    const std::string bytes = "l1\r\nl2 \xe9\r\n";
    f.put("a.txt", bytes);
    REQUIRE(::chmod(f.path("a.txt").c_str(), 0640) == 0);
    const auto unread = f.remove("a.txt");
    CHECK(unread.is_error);
    CHECK(has(unread.text, "read"));
    CHECK(f.get("a.txt") == bytes);

    REQUIRE(!f.read("a.txt").is_error);
    const auto dry = f.remove("a.txt", true);
    REQUIRE(!dry.is_error);
    CHECK(tools_test::fs::exists(f.root / "a.txt"));
    const auto deleted = f.remove("a.txt");
    INFO(deleted.text);
    REQUIRE(!deleted.is_error);
    CHECK(!tools_test::fs::exists(f.root / "a.txt"));
    CHECK(has(deleted.text, "--- a/a.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-l1\n"));
    CHECK(deleted.structured["removals"] == 2);
    CHECK(deleted.structured["deleted"] == true);
    CHECK(has(f.patch(), "+++ /dev/null"));

    const auto undone = f.undo("a.txt");
    INFO(undone.text);
    REQUIRE(!undone.is_error);
    CHECK(f.get("a.txt") == bytes);
    CHECK(f.mode("a.txt") == 0640);
}

TEST_CASE(
    "move and delete: a binary file and a UTF-32 file keep their exact bytes and mode; git's Binary files line; undo "
    "restores them") {
    MoveFixture f;
    const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe no newline", 26);
    const std::string utf32("\xff\xfe\0\0h\0\0\0\n\0\0\0", 12);
    f.put("img.png", png);
    f.put("u32.txt", utf32);
    REQUIRE(::chmod(f.path("img.png").c_str(), 0604) == 0);
    REQUIRE(::chmod(f.path("u32.txt").c_str(), 0640) == 0);

    // A move needs no read (nothing is lost) and carries any bytes.
    const auto moved = f.move("img.png", "art/logo.png");
    INFO(moved.text);
    REQUIRE(!moved.is_error);
    CHECK(f.get("art/logo.png") == png);
    CHECK(f.mode("art/logo.png") == 0604);
    CHECK(has(moved.text, "rename from img.png\nrename to art/logo.png\n"));

    // A deletion of a file read cannot show needs no read; the call names its size and hash.
    const auto deleted = f.remove("u32.txt");
    INFO(deleted.text);
    REQUIRE(!deleted.is_error);
    CHECK(!tools_test::fs::exists(f.root / "u32.txt"));
    CHECK(has(deleted.text, "a UTF-16/32 file of 12 bytes, sha256 "));
    CHECK(has(deleted.text, "Binary files a/u32.txt and /dev/null differ\n"));
    CHECK(!has(deleted.text, "+++"));
    CHECK(deleted.structured["removals"] == 0);

    // The session patch: a rename and git's line for the deletion, no raw bytes.
    const std::string patch = f.patch();
    CHECK(patch ==
          "diff --git a/img.png b/art/logo.png\nsimilarity index 100%\nrename from img.png\nrename to art/logo.png\n"
          "Binary files a/u32.txt and /dev/null differ\n");

    const auto recreated = f.undo("u32.txt");
    INFO(recreated.text);
    REQUIRE(!recreated.is_error);
    CHECK(has(recreated.text, "Binary files /dev/null and b/u32.txt differ\n"));
    CHECK(f.get("u32.txt") == utf32);
    CHECK(f.mode("u32.txt") == 0640);
    const auto back = f.undo("art/logo.png");
    INFO(back.text);
    REQUIRE(!back.is_error);
    CHECK(f.get("img.png") == png);
    CHECK(f.mode("img.png") == 0604);
    CHECK(!tools_test::fs::exists(f.root / "art/logo.png"));
    CHECK(f.patch() == "");
}

TEST_CASE("delete and move over: a binary file this session has seen must be unchanged since") {
    MoveFixture f;
    const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    f.put("img.png", png);
    f.put("other.txt", "text\n");
    REQUIRE(!f.read("img.png").is_error);  // an image: read shows it, and records what it saw
    f.put("img.png", png + std::string("\0more", 5));
    const auto stale = f.remove("img.png");
    CHECK(stale.is_error);
    CHECK(has(stale.text, "changed on disk"));
    const auto over = f.move("other.txt", "img.png", {{"overwrite", true}});
    CHECK(over.is_error);
    CHECK(has(over.text, "changed on disk"));
    CHECK(f.get("other.txt") == "text\n");
    // A text file still needs its read before it is deleted.
    CHECK(has(f.remove("other.txt").text, "has not read"));
}

TEST_CASE("delete: an empty folder only; a changed file refused; ignored refused") {
    MoveFixture f;
    tools_test::fs::create_directories(f.root / "empty");
    f.put("full/x.txt", "x\n");
    const auto full = f.remove("full");
    CHECK(full.is_error);
    CHECK(has(full.text, "not empty"));
    CHECK(tools_test::fs::exists(f.root / "full/x.txt"));
    const auto empty = f.remove("empty");
    INFO(empty.text);
    REQUIRE(!empty.is_error);
    CHECK(empty.structured["folder"] == true);
    CHECK(!tools_test::fs::exists(f.root / "empty"));

    REQUIRE(!f.read("full/x.txt").is_error);
    f.put("full/x.txt", "changed\n");
    const auto changed = f.remove("full/x.txt");
    CHECK(changed.is_error);
    CHECK(f.get("full/x.txt") == "changed\n");
}

TEST_CASE("move: an edit and a move of one file started together both land (lanes)") {
    for (int order = 0; order < 2; ++order) {
        MoveFixture f;
        f.put("a.txt", "one\ntwo\n");
        REQUIRE(!f.read("a.txt").is_error);
        std::optional<tools::ToolResult> edited, moved;
        const Json edit = {{"file_path", f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}};
        const Json move = {{"from", f.path("a.txt")}, {"to", f.path("b.txt")}};
        if (order == 0) {
            f.start(tools::edit_handler(), edit, edited);
            f.start(tools::move_handler(), move, moved);
        } else {
            f.start(tools::move_handler(), move, moved);
            f.start(tools::edit_handler(), edit, edited);
        }
        f.io.restart();
        f.io.run();
        REQUIRE(edited);
        REQUIRE(moved);
        CAPTURE(order);
        REQUIRE(!moved->is_error);
        if (order == 0) {  // the edit first, then the moved file carries it
            CHECK(!edited->is_error);
            CHECK(f.get("b.txt") == "one\nTWO\n");
        } else {  // the move first: the edit finds no file, and says so; nothing is lost
            CHECK(edited->is_error);
            CHECK(f.get("b.txt") == "one\ntwo\n");
        }
        CHECK(!tools_test::fs::exists(f.root / "a.txt"));
    }
}

TEST_CASE("undo of apply_diff's Move File (moved and changed) moves it back with its old bytes and mode") {
    MoveFixture f;
    f.put("a.txt", "x\r\ny\r\n");
    REQUIRE(::chmod(f.path("a.txt").c_str(), 0700) == 0);
    const auto patched = f.call(
        tools::apply_diff_handler(),
        {{"diff", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n x\n-y\n+Y\n*** End Patch\n"}});
    INFO(patched.text);
    REQUIRE(!patched.is_error);
    CHECK(f.get("b.txt") == "x\r\nY\r\n");
    CHECK(f.mode("b.txt") == 0700);
    CHECK(!tools_test::fs::exists(f.root / "a.txt"));
    const auto undone = f.undo("b.txt");
    INFO(undone.text);
    REQUIRE(!undone.is_error);
    CHECK(undone.structured["undone_tool"] == "apply_diff");
    CHECK(f.get("a.txt") == "x\r\ny\r\n");
    CHECK(f.mode("a.txt") == 0700);
    CHECK(!tools_test::fs::exists(f.root / "b.txt"));
}

TEST_CASE("undo of one side of a move whose other side changed since is refused") {
    MoveFixture f;
    f.put("a.txt", "a\n");
    REQUIRE(!f.move("a.txt", "b.txt").is_error);
    REQUIRE(!f.read("b.txt").is_error);
    REQUIRE(!f.call(tools::edit_handler(), {{"file_path", f.path("b.txt")}, {"old_string", "a"}, {"new_string", "A"}})
                 .is_error);
    REQUIRE(!f.undo("b.txt").is_error);  // the edit
    f.put("a.txt", "someone else\n");
    const auto refused = f.undo("b.txt");
    CHECK(refused.is_error);
    CHECK(f.get("b.txt") == "a\n");
    CHECK(f.get("a.txt") == "someone else\n");
}

TEST_CASE("move and delete (issue 39, item 4): a symlink named through ~/ is refused like any other spelling") {
    MoveFixture f;
    f.put("bin/target.txt", "t\n");
    tools_test::fs::create_symlink(f.root / "bin/target.txt", f.root / "bin/binlink");
    REQUIRE(!f.read("bin/target.txt").is_error);
    // HOME is the root's parent, so ~/<root's name>/bin/binlink names the link.
    const char* saved = std::getenv("HOME");
    const std::string saved_home = saved ? saved : "";
    ::setenv("HOME", f.root.parent_path().c_str(), 1);
    const std::string via_home = "~/" + f.root.filename().string() + "/bin/binlink";
    const auto deleted = f.remove(via_home);
    const auto moved = f.move(via_home, "elsewhere.txt");
    const auto moved_onto = f.move("bin/target.txt", via_home, {{"overwrite", true}});
    if (saved)
        ::setenv("HOME", saved_home.c_str(), 1);
    else
        ::unsetenv("HOME");
    INFO(deleted.text);
    CHECK(deleted.is_error);
    CHECK(has(deleted.text, "symbolic link"));
    CHECK(moved.is_error);
    CHECK(has(moved.text, "symbolic link"));
    CHECK(moved_onto.is_error);
    CHECK(f.get("bin/target.txt") == "t\n");
    CHECK(tools_test::fs::is_symlink(f.root / "bin/binlink"));
    CHECK(!tools_test::fs::exists(f.root / "elsewhere.txt"));
}

#endif  // _WIN32
