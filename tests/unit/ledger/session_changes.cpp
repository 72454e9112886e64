// Unit tests of ledger/session_changes and ledger/session_patch: files listed in the order first
// changed, the base kept from the first change only, the cap on kept bases, the patch of created,
// changed, deleted and changed-back files, and the resource URIs.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ledger/session_changes.hpp"
#include "os/scratch_files.hpp"
#include "ledger/session_patch.hpp"

namespace fs = std::filesystem;
using ledger::SessionChanges;

TEST_CASE("session changes: listed once in first-change order, base from the first change, listener told") {
    ledger::SessionChanges changes;
    std::vector<std::string> heard;
    changes.set_listener([&](const std::string& path, bool is_new) { heard.push_back(path + (is_new ? " new" : "")); });
    CHECK(changes.note_change("/r/b.txt", true));
    changes.keep_base("/r/b.txt", "b0");
    CHECK(changes.note_change("/r/a.txt", false));
    changes.keep_base("/r/a.txt", "");
    CHECK_FALSE(changes.note_change("/r/b.txt", true));
    changes.keep_base("/r/b.txt", "b1");  // not the first change: ignored
    const auto files = changes.files();
    REQUIRE(files.size() == 2);
    CHECK(files[0].real_path == "/r/b.txt");
    CHECK(*files[0].base == "b0");
    CHECK(files[0].changes == 2);
    CHECK(files[1].real_path == "/r/a.txt");
    CHECK_FALSE(files[1].existed);
    CHECK_FALSE(files[1].base);
    CHECK(heard == std::vector<std::string>{"/r/b.txt new", "/r/a.txt new", "/r/b.txt"});
}

TEST_CASE("session changes: bases past the byte cap are not kept, and the patch says so") {
    ledger::SessionChanges changes(10);
    changes.note_change("/r/small", true);
    changes.keep_base("/r/small", "12345");
    changes.note_change("/r/big", true);
    changes.keep_base("/r/big", "1234567890");
    CHECK(changes.find("/r/small")->base_kept);
    CHECK_FALSE(changes.find("/r/big")->base_kept);
    const os::Workspace workspace({fs::temp_directory_path().generic_string()});
    const auto diff = ledger::diff_now(*changes.find("/r/big"), workspace, 1 << 20, false);
    CHECK(diff.note.find("not kept") != std::string::npos);
}

TEST_CASE("session patch: created, changed, deleted and changed-back files against their bases") {
    const fs::path dir = fs::path(os::make_private_directory("mcp-edit-patch-").value());
    const os::Workspace workspace({dir.generic_string()});
    const std::string root = workspace.roots().front();
    const auto put = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(dir / name, std::ios::binary) << bytes;
    };
    ledger::SessionChanges changes;
    put("changed.txt", "one\nTWO\nthree\n");
    changes.note_change(root + "/changed.txt", true);
    changes.keep_base(root + "/changed.txt", "one\ntwo\nthree\n");
    put("new.txt", "fresh\n");
    changes.note_change(root + "/new.txt", false);
    changes.keep_base(root + "/new.txt", "");
    changes.note_change(root + "/gone.txt", true);
    changes.keep_base(root + "/gone.txt", "bye\n");
    put("same.txt", "x\r\n");
    changes.note_change(root + "/same.txt", true);
    changes.keep_base(root + "/same.txt", "x\r\n");

    const auto patch = ledger::session_patch(changes.files(), workspace, 1 << 20, false);
    REQUIRE(patch.files.size() == 4);
    CHECK(patch.files_differing == 3);
    CHECK(patch.text ==
          "--- a/changed.txt\n+++ b/changed.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
          "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+fresh\n"
          "--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n");
    CHECK(patch.files[1].created);
    CHECK(patch.files[2].deleted);
    CHECK(patch.files[3].diff.empty());
    CHECK(patch.additions == 2);
    CHECK(patch.removals == 2);
    fs::remove_all(dir);
}

TEST_CASE("session patch: file URIs are the real path, percent-encoded") {
    CHECK(ledger::session_file_uri("/home/u/a b/ü.txt") == "mcp-edit://session/file/home/u/a%20b/%C3%BC.txt");
    CHECK(ledger::session_file_uri("C:/x/y.txt") == "mcp-edit://session/file/C%3A/x/y.txt");
}

TEST_CASE("session changes: a big file's base is a delta on what the server wrote, carried through later changes") {
    std::string base(ledger::SessionChanges::max_whole_base + 100, 'x');
    base.replace(0, 5, "\xEF\xBB\xBFhi");
    base += "\r\nend, no newline";
    std::string a = base, b, c;
    a.insert(10, "one\r\n");
    b = a;
    b.erase(b.size() - 3);  // far from the first change: the delta spans both
    c = std::string(1, '\0') + b;
    ledger::SessionChanges changes;
    changes.note_change("/r/big", true);
    changes.changed("/r/big", base, text::ByteParts(a), ledger::Fingerprint::of(a));
    changes.note_change("/r/big", true);
    changes.changed("/r/big", a, text::ByteParts(b), ledger::Fingerprint::of(b));
    auto file = changes.find("/r/big");
    REQUIRE(file);
    CHECK_FALSE(file->base);
    REQUIRE(file->delta);
    CHECK(file->delta->spans.size() == 2);  // one per region changed
    CHECK(file->delta->cost() < 1024);      // not a whole copy
    CHECK(file->base_given(&b) == base);
    CHECK_FALSE(file->base_given(&a));  // not what the server wrote last: cannot be rebuilt
    CHECK_FALSE(file->base_given(nullptr));
    // A change that did not start from the server's last write loses the base (and says so).
    changes.note_change("/r/big", true);
    changes.changed("/r/big", c, text::ByteParts(b), ledger::Fingerprint::of(b));
    file = changes.find("/r/big");
    CHECK_FALSE(file->delta);
    CHECK_FALSE(file->base_kept);
    // Deleted by the server: the base is kept whole in the delta, whatever is there now.
    changes.note_change("/r/gone", true);
    changes.changed("/r/gone", base, text::ByteParts(a), ledger::Fingerprint::of(a));
    changes.note_change("/r/gone", true);
    changes.changed("/r/gone", a, std::nullopt, std::nullopt);
    file = changes.find("/r/gone");
    REQUIRE(file->delta);
    CHECK(file->base_given(nullptr) == base);
}
