// Unit tests of os/workspace under Wine: Windows' own spellings (backslashes, \\?\, names compared
// without case) name the same files and the same roots.
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "os/workspace.hpp"
#include "tests/unit/os/workspace_fixture.hpp"

namespace workspace_test {

namespace {

std::string backslashed(std::string path) {
    for (auto& c : path)
        if (c == '/') c = '\\';
    return path;
}

std::string upper(std::string path) {
    for (auto& c : path) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return path;
}

}  // namespace

TEST_CASE("workspace (Windows): backslashes, \\\\?\\ paths and another case name the same files") {
    TempTree t;
    os::Workspace ws({t.root()});
    // The error's message when the path did not resolve ("" when it did).
    auto why = [](const auto& resolved) { return resolved.ok() ? std::string() : resolved.error().message; };
    const auto backslashes = ws.resolve(backslashed(t.root()) + "\\sub\\..\\a.txt");
    REQUIRE_MESSAGE(backslashes.ok(), why(backslashes));
    CHECK(backslashes->display == "a.txt");
    const auto long_form = ws.resolve("\\\\?\\" + backslashed(t.root()) + "\\a.txt");
    REQUIRE_MESSAGE(long_form.ok(), why(long_form));
    CHECK(long_form->display == "a.txt");
    CHECK(long_form->real == t.root() + "/a.txt");
    const auto other_case = ws.resolve(upper(t.root()) + "/A.TXT");
    REQUIRE_MESSAGE(other_case.ok(), why(other_case));
    CHECK(other_case->display == "a.txt");  // the name as stored
    const auto fresh = ws.resolve("SUB\\New.txt");
    REQUIRE_MESSAGE(fresh.ok(), why(fresh));
    CHECK_FALSE(fresh->exists);
    // The same escapes in Windows' spellings.
    const auto up_outside = ws.resolve("..\\outside\\secret.txt");
    REQUIRE_FALSE(up_outside.ok());
    CHECK(up_outside.error().reason == base::ErrorReason::outside_root);
    const auto long_outside = ws.resolve("\\\\?\\" + backslashed(t.outside()) + "\\secret.txt");
    REQUIRE_FALSE(long_outside.ok());
    CHECK(long_outside.error().reason == base::ErrorReason::outside_root);
    const auto upper_outside = ws.resolve(upper(t.outside()) + "/SECRET.TXT");
    REQUIRE_FALSE(upper_outside.ok());
    CHECK(upper_outside.error().reason == base::ErrorReason::outside_root);
    // A root beside it whose name starts the same is not inside it.
    fs::create_directories(fs_path(t.base + "/rootish"));
    const auto rootish = ws.resolve(t.base + "/ROOTISH/x.txt");
    REQUIRE_FALSE(rootish.ok());
    CHECK(rootish.error().reason == base::ErrorReason::outside_root);
}

TEST_CASE("workspace (Windows): roots compare without case: one root, client roots in another case narrow it") {
    TempTree t;
    os::Workspace ws({t.root(), upper(t.root()), backslashed(t.root())});
    REQUIRE(ws.roots().size() == 1);
    CHECK(ws.roots()[0] == t.root());
    CHECK(ws.problems().empty());
    const auto narrowed = ws.with_client_roots({file_uri(upper(t.root()) + "/SUB")}, true);
    CHECK(narrowed.note.empty());
    REQUIRE(narrowed.workspace.roots() == std::vector<std::string>{t.root() + "/sub"});
    const auto fresh = narrowed.workspace.resolve("new.txt");
    REQUIRE(fresh.ok());
    CHECK(fresh->real == t.root() + "/sub/new.txt");
    CHECK_FALSE(narrowed.workspace.resolve(t.root() + "/a.txt").ok());
}

}  // namespace workspace_test
