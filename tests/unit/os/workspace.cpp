// Unit tests of os/workspace: roots, containment, symlink escapes, `..`, new files, client roots, `~/`.
// Portable: under Wine the same cases run with drive-letter paths (C:/...), file:///C:/ URIs and
// %USERPROFILE%, plus Windows' own forms (backslashes, \\?\, names compared without case). The
// cases that need links run where links can be made: Wine 8 makes neither symlinks nor junctions
// (CreateSymbolicLinkW succeeds and creates nothing, a junction is ERROR_NOT_SUPPORTED), so there
// they are reported as skipped.
#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#ifdef _WIN32
#include <windows.h>
#endif

#include "os/confinement.hpp"
#include "os/platform.hpp"
#include "os/workspace.hpp"

namespace fs = std::filesystem;

namespace {

fs::path fs_path(const std::string& utf8) { return fs::path(std::u8string(utf8.begin(), utf8.end())); }

// Makes `link` a symbolic link to `target`; false when this system makes none (see above).
bool make_symlink(const std::string& target, const std::string& link, bool directory) {
#ifdef _WIN32
    const std::wstring t = fs_path(target).make_preferred().wstring();
    const std::wstring l = fs_path(link).make_preferred().wstring();
    const DWORD flags = SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE | (directory ? SYMBOLIC_LINK_FLAG_DIRECTORY : 0);
    if (!CreateSymbolicLinkW(l.c_str(), t.c_str(), flags)) return false;
    const DWORD attributes = GetFileAttributesW(l.c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
#else
    std::error_code ec;
    if (directory)
        fs::create_directory_symlink(fs_path(target), fs_path(link), ec);
    else
        fs::create_symlink(fs_path(target), fs_path(link), ec);
    return !ec;
#endif
}

// root/a.txt, root/sub/, outside/secret.txt in a fresh private folder; every path as the platform
// layer spells it (real, '/' separators; C:/... on Windows).
struct TempTree {
    std::string base;
    TempTree() {
        const auto made = platform::make_private_directory("mcp-edit-ws-");
        REQUIRE(made);
        const auto real = platform::real_path(*made);
        REQUIRE(real);
        base = *real;
        fs::create_directories(fs_path(base + "/root/sub"));
        fs::create_directories(fs_path(base + "/outside"));
        std::ofstream(fs_path(base + "/root/a.txt")) << "a";
        std::ofstream(fs_path(base + "/outside/secret.txt")) << "s";
    }
    ~TempTree() {
        std::error_code ec;
        fs::remove_all(fs_path(base), ec);
    }
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;
    std::string root() const { return base + "/root"; }
    std::string outside() const { return base + "/outside"; }
    // The links of the escape cases: root/escape -> outside/secret.txt, root/inside-link -> root/a.txt,
    // root/outdir -> outside, root/dangling -> outside/nothing.
    bool make_links() const {
        return make_symlink(outside() + "/secret.txt", root() + "/escape", false) &&
               make_symlink(root() + "/a.txt", root() + "/inside-link", false) &&
               make_symlink(outside(), root() + "/outdir", true) &&
               make_symlink(outside() + "/nothing", root() + "/dangling", false);
    }
};

// Whether this system makes symlinks: tried once, when the test cases are registered (so no
// doctest assertion here), in a folder of its own.
bool links_work() {
    std::error_code ec;
    const fs::path dir =
        fs::temp_directory_path(ec) /
        ("mcp-edit-ws-link-probe-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    if (ec || !fs::create_directory(dir, ec)) return false;
    std::ofstream(dir / "a.txt") << "a";
    const std::string spelled = platform::normalize_separators(dir.generic_string());
    const bool work = make_symlink(spelled + "/a.txt", spelled + "/link", false);
    fs::remove_all(dir, ec);
    return work;
}

// A client root URI for an absolute path: file:///tmp/x, file:///C:/x.
std::string file_uri(const std::string& path) { return path.starts_with("/") ? "file://" + path : "file:///" + path; }

// The file system root the temp folder is on: "/" or "C:/".
std::string drive_of(const std::string& path) { return platform::filesystem_root(path); }

// Points the user's home (HOME; on Windows USERPROFILE, which comes first) at `dir` while alive.
class HomeAt {
public:
    explicit HomeAt(const std::string& dir) : saved_(get()) { set(dir); }
    ~HomeAt() { set(saved_); }
    HomeAt(const HomeAt&) = delete;
    HomeAt& operator=(const HomeAt&) = delete;
    void move_to(const std::string& dir) { set(dir); }

private:
#ifdef _WIN32
    static constexpr const wchar_t* name = L"USERPROFILE";
    static std::optional<std::wstring> get() {
        wchar_t buffer[32768];
        const DWORD n = GetEnvironmentVariableW(name, buffer, 32768);
        if (n == 0 || n >= 32768) return std::nullopt;
        return std::wstring(buffer, n);
    }
    static void set(const std::optional<std::wstring>& value) {
        SetEnvironmentVariableW(name, value ? value->c_str() : nullptr);
    }
    static void set(const std::string& dir) {
        set(std::optional<std::wstring>(fs_path(dir).make_preferred().wstring()));
    }
    std::optional<std::wstring> saved_;
#else
    static std::optional<std::string> get() {
        const char* value = std::getenv("HOME");
        return value ? std::optional<std::string>(value) : std::nullopt;
    }
    static void set(const std::optional<std::string>& value) {
        if (value)
            ::setenv("HOME", value->c_str(), 1);
        else
            ::unsetenv("HOME");
    }
    static void set(const std::string& dir) { set(std::optional<std::string>(dir)); }
    std::optional<std::string> saved_;
#endif
};

}  // namespace

TEST_CASE("workspace: relative and absolute paths inside the root resolve") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto relative = ws.resolve("a.txt");
    REQUIRE(relative.ok());
    CHECK(relative->real == t.root() + "/a.txt");
    CHECK(relative->exists);
    CHECK(relative->display == "a.txt");
    const auto absolute = ws.resolve(t.root() + "/sub/../a.txt");
    REQUIRE(absolute.ok());
    CHECK(absolute->display == "a.txt");
}

TEST_CASE("workspace: escapes by `..` and absolute paths are refused with a message naming the roots") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto up = ws.resolve("../outside/secret.txt");
    REQUIRE_FALSE(up.ok());
    CHECK(up.error().message.find("outside the allowed roots (" + t.root() + ")") != std::string::npos);
    const auto absolute = ws.resolve(t.outside() + "/secret.txt");
    REQUIRE_FALSE(absolute.ok());
    CHECK(absolute.error().reason == base::ErrorReason::outside_root);
    // Each refused as outside the roots (not for some other reason, such as a file that is missing).
    const auto refused_outside = [&](const std::string& path) {
        CAPTURE(path);
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().reason == base::ErrorReason::outside_root);
        CHECK(r.error().message.find("outside the allowed roots (" + t.root() + ")") != std::string::npos);
    };
    refused_outside("sub/../../outside/new.txt");
    refused_outside(drive_of(t.base) + "etc/passwd");
    refused_outside("/etc/passwd");  // on Windows: on the root's drive, still outside
    CHECK_FALSE(ws.resolve(std::string("a\0b", 3)).ok());
    CHECK_FALSE(ws.resolve("").ok());
}

TEST_CASE("workspace: symlinks inside resolve; symlinks out, dangling or through a folder are refused" *
          doctest::skip(!links_work()) * doctest::description("this system makes no symlinks")) {
    TempTree t;
    REQUIRE(t.make_links());
    os::Workspace ws({t.root()});
    const auto inside = ws.resolve("inside-link");
    REQUIRE(inside.ok());
    CHECK(inside->display == "a.txt");
    const auto escape = ws.resolve("escape");
    REQUIRE_FALSE(escape.ok());
    CHECK(escape.error().message.find("outside the allowed roots") != std::string::npos);
    // Where the link leads is not said (issue 39: refusals named outside targets).
    CHECK(escape.error().message.find(t.outside()) == std::string::npos);
    CHECK_FALSE(ws.resolve("outdir/secret.txt").ok());
    CHECK_FALSE(ws.resolve("outdir/new.txt").ok());
    CHECK_FALSE(ws.resolve("dangling").ok());
}

TEST_CASE("workspace: new files resolve through their nearest existing ancestor") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto fresh = ws.resolve("new/dir/file.txt");
    REQUIRE(fresh.ok());
    CHECK_FALSE(fresh->exists);
    CHECK(fresh->display == "new/dir/file.txt");
    CHECK(fresh->real == t.root() + "/new/dir/file.txt");
    const auto up = ws.resolve("new/../../outside/x");
    REQUIRE_FALSE(up.ok());
#ifdef _WIN32
    // Windows resolves `..` by name before it looks at the disk: the path is outside.
    CHECK(up.error().reason == base::ErrorReason::outside_root);
    CHECK(up.error().message.find("Refused: new/../../outside/x is outside the allowed roots") == 0);
#else
    // Refused for its `..` in the missing part (which could not be checked), not as outside.
    CHECK(up.error().reason == base::ErrorReason::invalid_arguments);
    CHECK(up.error().message ==
          "Refused: new/../../outside/x uses `..` in a part of the path that does not exist yet. "
          "Pass the path without `..`.");
#endif
}

TEST_CASE("workspace: unusable roots are reported, duplicates merged") {
    TempTree t;
    os::Workspace ws({t.root(), t.root(), t.base + "/missing", t.root() + "/a.txt"});
    CHECK(ws.roots().size() == 1);
    CHECK(ws.problems().size() == 2);
}

TEST_CASE("workspace: unusable roots say why") {
    TempTree t;
    os::Workspace ws({t.base + "/missing", t.root() + "/a.txt"});
    CHECK(ws.roots().empty());
    REQUIRE(ws.problems().size() == 2);
    CHECK(ws.problems()[0] == t.base + "/missing does not exist");
    CHECK(ws.problems()[1] == t.root() + "/a.txt is not a directory");
}

TEST_CASE("workspace: with --root given, client roots narrow it where they overlap") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string sub = t.root() + "/sub";
    const auto narrowed = ws.with_client_roots({file_uri(sub)}, true);
    CHECK(narrowed.note.empty());
    REQUIRE(narrowed.workspace.roots() == std::vector<std::string>{sub});
    // A path inside --root but outside the client's roots is refused, naming both sets.
    const auto refused = narrowed.workspace.resolve(t.root() + "/a.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("outside the allowed roots (" + sub + ": where the client's roots (" + sub +
                                       ") and this server's --root (" + t.root() + ") overlap)") != std::string::npos);
    CHECK(narrowed.workspace.resolve(sub + "/new.txt").ok());

    // A client root wider than --root leaves --root as it is.
    const auto wider = ws.with_client_roots({file_uri(t.base)}, true);
    CHECK(wider.note.empty());
    CHECK(wider.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: with --root given, disjoint client roots leave --root and say so") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string outside = t.outside();
    const std::string root = t.root();
    const auto kept = ws.with_client_roots({file_uri(outside)}, true);
    CHECK(kept.workspace.roots() == ws.roots());
    CHECK(kept.note ==
          "The client's roots (" + outside + ") are outside this server's --root (" + root + "); --root is used.");
    CHECK(kept.workspace.resolve("a.txt").ok());
    const auto refused = kept.workspace.resolve(outside + "/secret.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("(" + root + ": this server's --root; the client's roots (" + outside +
                                       ") are outside it)") != std::string::npos);

    const std::string gone = t.base + "/gone";
    const auto unusable = ws.with_client_roots({file_uri(gone), "https://example.com/x"}, true);
    CHECK(unusable.workspace.roots() == ws.roots());
    CHECK(unusable.note == "The client's roots (" + gone + ", https://example.com/x) cannot be used (" + gone +
                               " does not exist); this server's --root (" + root + ") is used.");

    const auto none = ws.with_client_roots({}, true);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: without --root, the client's roots are the roots; the working directory is the fallback") {
    TempTree t;
    const std::string outside = t.outside();
    const os::Workspace cwd({t.root()}, "this server's working directory; it was started without --root");
    const auto theirs = cwd.with_client_roots({file_uri(outside)}, false);
    CHECK(theirs.note.empty());
    REQUIRE(theirs.workspace.roots() == std::vector<std::string>{outside});
    const auto relative = theirs.workspace.resolve("secret.txt");  // relative to the client's root
    REQUIRE(relative.ok());
    CHECK(relative->real == outside + "/secret.txt");
    const auto refused = theirs.workspace.resolve(t.root() + "/a.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("the client's roots; this server was started without --root") !=
          std::string::npos);

    const auto fallback = cwd.with_client_roots({file_uri(t.base + "/gone")}, false);
    CHECK(fallback.workspace.roots() == cwd.roots());
    CHECK(fallback.note.find("this server was started without --root, so its working directory (" + t.root() +
                             ") is used.") != std::string::npos);

    const auto none = cwd.with_client_roots({}, false);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == cwd.roots());
}

TEST_CASE("workspace: client root URIs are decoded; only the first max_client_roots are examined") {
    TempTree t;
    fs::create_directories(fs_path(t.root() + "/with space"));
    const os::Workspace ws({t.root()});
    const std::string spaced = t.root() + "/with space";
    std::string uri;
    for (const char c : file_uri(spaced)) uri += c == ' ' ? std::string("%20") : std::string(1, c);
    const auto decoded = ws.with_client_roots({uri}, true);
    CHECK(decoded.workspace.roots() == std::vector<std::string>{spaced});

    std::vector<std::string> many(os::Workspace::max_client_roots, file_uri(t.base + "/gone"));
    many.push_back(file_uri(spaced));  // past the bound: not examined
    const auto bounded = ws.with_client_roots(many, true);
    CHECK(bounded.workspace.roots() == ws.roots());
    CHECK(bounded.note.find(" and 56 more (and 1 more not examined)) cannot be used") != std::string::npos);
}

TEST_CASE("workspace: a missing path outside the roots is not said to resolve to its ancestor") {
    TempTree t;
    os::Workspace ws({t.root()});
    const std::string root = t.root();
    const std::string drive = drive_of(t.base);  // "/" or "C:/"
    const std::string secret = t.outside() + "/secret.txt";
    const std::string missing = drive + "no-such-dir-mcp-edit/sub/zzz.txt";
    const auto absent = ws.resolve(missing);
    REQUIRE_FALSE(absent.ok());
    CHECK(absent.error().reason == base::ErrorReason::outside_root);
    CHECK(absent.error().message.find("resolves to " + drive + ",") == std::string::npos);
    // Whether an outside path exists is not said (issue 39): the same words as for one that does.
    CHECK(absent.error().message.find("Refused: " + missing + " is outside the allowed roots (" + root + ").") == 0);
    CHECK(absent.error().message.find("exist") == std::string::npos);
    CHECK(absent.error().message.find("e.g. a path relative to " + root) != std::string::npos);
    // A tail of it exists in the root: the message names it.
    const auto tail = ws.resolve(drive + "repo-mcp-edit/a.txt");
    REQUIRE_FALSE(tail.ok());
    CHECK(tail.error().message.find(" " + root + "/a.txt exists: if that is the file meant, pass a.txt.") !=
          std::string::npos);
    // An existing file outside: said plainly, without "resolves to" itself.
    const auto outside = ws.resolve(secret);
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().message.find("Refused: " + secret + " is outside the allowed roots") == 0);
    const auto empty = ws.resolve("");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().reason == base::ErrorReason::invalid_arguments);
}

TEST_CASE("workspace: `~/` is the user's home, then checked against the roots") {
    TempTree t;
    HomeAt home(t.root());
    os::Workspace ws({t.root()});
    const auto existing = ws.resolve("~/a.txt");
    REQUIRE(existing.ok());
    CHECK(existing->real == t.root() + "/a.txt");
    const auto fresh = ws.resolve("~/new.txt");
    REQUIRE(fresh.ok());
    CHECK_FALSE(fresh->exists);
    home.move_to(t.outside());
    const auto outside = ws.resolve("~/secret.txt");
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().message.find("outside the allowed roots") != std::string::npos);
}

#ifdef _WIN32
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
#endif

// --- Issue 39: several roots name each file once; outside paths are not described -------------

namespace {

// root/a.txt etc. (TempTree), plus a second root "other" holding files named like the first's.
struct TwoRoots : TempTree {
    TwoRoots() {
        fs::create_directories(fs_path(base + "/other/sub"));
        std::ofstream(fs_path(root() + "/config.py")) << "first";
        std::ofstream(fs_path(other() + "/config.py")) << "second";
        std::ofstream(fs_path(other() + "/only-here.txt")) << "o";
    }
    std::string other() const { return base + "/other"; }
};

}  // namespace

TEST_CASE("workspace (issue 39, item 7): with several roots every shown path carries its root and names one file") {
    TwoRoots t;
    os::Workspace ws({t.root(), t.other()});
    REQUIRE(ws.labels() == std::vector<std::string>{"root", "other"});
    const auto first = ws.resolve(t.root() + "/config.py");
    const auto second = ws.resolve(t.other() + "/config.py");
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    CHECK(first->display == "root/config.py");
    CHECK(second->display == "other/config.py");
    CHECK(ws.display_path(t.other()) == "other");
    CHECK(ws.display_path(t.root() + "/sub") == "root/sub");
    // Each shown path, passed back, names the file it was shown for.
    for (const auto* shown : {&first, &second}) {
        const auto back = ws.resolve((*shown)->display);
        REQUIRE(back.ok());
        CHECK(back->real == (*shown)->real);
        CHECK(back->display == (*shown)->display);
    }
    CHECK(ws.resolve("other")->real == t.other());
    // A bare path that exists in both roots is refused, naming both.
    const auto bare = ws.resolve("config.py");
    REQUIRE_FALSE(bare.ok());
    CHECK(bare.error().message.find("exists in 2 roots") != std::string::npos);
    CHECK(bare.error().message.find("root/config.py, other/config.py") != std::string::npos);
    // One that exists in one root only is that file; a new one goes to the first root.
    const auto only = ws.resolve("only-here.txt");
    REQUIRE(only.ok());
    CHECK(only->real == t.other() + "/only-here.txt");
    CHECK(only->display == "other/only-here.txt");
    const auto fresh = ws.resolve("brand-new.txt");
    REQUIRE(fresh.ok());
    CHECK(fresh->real == t.root() + "/brand-new.txt");
    const auto fresh_other = ws.resolve("other/sub/new.txt");
    REQUIRE(fresh_other.ok());
    CHECK(fresh_other->real == t.other() + "/sub/new.txt");
    // "." is still the first root.
    CHECK(ws.resolve(".")->real == t.root());
    // A folder of the first root named like the second root: its files are shown (and taken)
    // with the first root's name in front, never confused with the second root's.
    fs::create_directories(fs_path(t.root() + "/other"));
    std::ofstream(fs_path(t.root() + "/other/config.py")) << "inner";
    const auto inner = ws.resolve(t.root() + "/other/config.py");
    REQUIRE(inner.ok());
    CHECK(inner->display == "root/other/config.py");
    CHECK(ws.resolve("root/other/config.py")->real == t.root() + "/other/config.py");
    CHECK(ws.resolve("other/config.py")->real == t.other() + "/config.py");
    std::ofstream(fs_path(t.root() + "/other/inner-only.txt")) << "i";
    const auto unclear = ws.resolve("other/inner-only.txt");
    REQUIRE_FALSE(unclear.ok());
    CHECK(unclear.error().message.find("root/other/inner-only.txt") != std::string::npos);
}

TEST_CASE(
    "workspace (issue 39, item 7): roots that share a base name get labels of their own; one root shows bare paths") {
    TempTree t;
    fs::create_directories(fs_path(t.base + "/a/src"));
    fs::create_directories(fs_path(t.base + "/b/src"));
    std::ofstream(fs_path(t.base + "/b/src/x.txt")) << "x";
    os::Workspace ws({t.base + "/a/src", t.base + "/b/src"});
    REQUIRE(ws.labels() == std::vector<std::string>{"src", "src~2"});
    const auto x = ws.resolve(t.base + "/b/src/x.txt");
    REQUIRE(x.ok());
    CHECK(x->display == "src~2/x.txt");
    CHECK(ws.resolve("src~2/x.txt")->real == t.base + "/b/src/x.txt");
    CHECK(ws.resolve("src/x.txt")->real == t.base + "/a/src/x.txt");  // a new file in the first
    os::Workspace one({t.root()});
    CHECK(one.resolve(t.root() + "/a.txt")->display == "a.txt");
    CHECK(one.display_path(t.root()) == ".");
}

TEST_CASE("workspace (issue 39): refusals of outside paths say the same whether they exist, and name no link target" *
          doctest::skip(!links_work()) * doctest::description("this system makes no symlinks")) {
    TempTree t;
    REQUIRE(t.make_links());
    os::Workspace ws({t.root()});
    const std::string root = t.root();
    const auto words = [&](const std::string& path) {
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().reason == base::ErrorReason::outside_root);
        CHECK(r.error().message.find(t.outside()) == std::string::npos);
        std::string m = r.error().message;
        m.erase(0, m.find(" is outside"));
        return m;
    };
    const std::string same = words("escape");           // a link to an outside file that exists
    CHECK(words("dangling") == same);                   // a link to an outside name that does not
    CHECK(words("outdir/secret.txt") == same);          // through a linked outside folder
    CHECK(words("outdir/nothing/deeper.txt") == same);  // ... to a name that does not exist
    CHECK(words("outdir/secret.txt/x") == same);        // ... past a file (ENOTDIR outside)
    const auto absolute = ws.resolve(t.outside() + "/secret.txt");
    const auto absent = ws.resolve(t.outside() + "/nothing/x.txt");
    REQUIRE_FALSE(absolute.ok());
    REQUIRE_FALSE(absent.ok());
    CHECK(absolute.error().message.substr(absolute.error().message.find(" is outside")) ==
          absent.error().message.substr(absent.error().message.find(" is outside")));
    // A dangling link whose target would be inside the roots is still refused, for what it is.
    REQUIRE(make_symlink(root + "/not-yet.txt", root + "/to-be", false));
    const auto inside = ws.resolve("to-be");
    REQUIRE_FALSE(inside.ok());
    CHECK(inside.error().message.find("target does not exist") != std::string::npos);
}

#ifndef _WIN32
TEST_CASE(
    "workspace (issue 39, item 3): a root renamed away and replaced is refused as moved, for reads and new files") {
    TempTree t;
    const std::string root = t.root();
    os::Workspace ws({root});
    REQUIRE(ws.resolve("a.txt").ok());
    fs::rename(fs_path(root), fs_path(t.base + "/moved"));
    fs::create_directories(fs_path(root));
    std::ofstream(fs_path(root + "/a.txt")) << "new";
    for (const std::string& path :
         {std::string("a.txt"), std::string("new.txt"), root + "/a.txt", std::string("."), std::string("sub/x.txt")}) {
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("the root " + root + " was moved or replaced") != std::string::npos);
        CHECK(r.error().reason == base::ErrorReason::outside_root);
    }
    // Taken afresh (a restart, new client roots), the folder now at the path is the root.
    os::Workspace fresh({root});
    const auto now = fresh.resolve("a.txt");
    REQUIRE(now.ok());
    CHECK(platform::read_regular_file(now->real, 1024, false)->bytes == "new");
    CHECK(platform::root_state(root) == platform::RootState::held);
}

TEST_CASE("workspace (issue 39, item 3): a root replaced by a symlink is refused as moved, naming no target") {
    TempTree t;
    const std::string root = t.root();
    os::Workspace ws({root});
    fs::rename(fs_path(root), fs_path(t.base + "/moved"));
    fs::create_directory_symlink(fs_path(t.outside()), fs_path(root));
    const auto r = ws.resolve("secret.txt");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("was moved or replaced") != std::string::npos);
    CHECK(r.error().message.find(t.outside()) == std::string::npos);
}

TEST_CASE(
    "workspace (issue 39, item 2): five rounds of 64 new client roots: every root is held, released when its workspace "
    "goes") {
    TempTree t;
    const os::Workspace cwd({t.root()}, "this server's working directory; it was started without --root");
    const std::size_t before = platform::held_root_count();
    std::optional<os::Workspace> current;
    for (int round = 0; round < 5; ++round) {
        std::vector<std::string> uris;
        for (std::size_t i = 0; i < os::Workspace::max_client_roots; ++i) {
            const std::string dir = t.base + "/r" + std::to_string(round) + "-" + std::to_string(i);
            fs::create_directories(fs_path(dir + "/real"));
            std::ofstream(fs_path(dir + "/real/t.txt")) << "inside\n";
            uris.push_back(file_uri(dir));
        }
        current.reset();  // the session drops the old workspace when the new roots arrive
        current.emplace(cwd.with_client_roots(uris, false).workspace);
        REQUIRE(current->roots().size() == os::Workspace::max_client_roots);
        CHECK(current->problems().empty());
        CHECK(platform::held_root_count() <= before + os::Workspace::max_client_roots);
    }
    // A folder of the last round's last root swapped for a symlink to outside: the read fails,
    // and nothing outside is read (a root that was not held was opened by name: it leaked).
    const std::string dir = current->roots().back();
    std::ofstream(fs_path(t.outside() + "/t.txt")) << "OUTSIDE\n";
    const auto resolved = current->resolve(dir + "/real/t.txt");
    REQUIRE(resolved.ok());
    fs::rename(fs_path(dir + "/real"), fs_path(dir + "/real.hold"));
    fs::create_directory_symlink(fs_path(t.outside()), fs_path(dir + "/real"));
    const auto read = platform::read_regular_file(resolved->real, 1024, false);
    CHECK_FALSE(read.ok());
    if (read.ok()) CHECK(read->bytes != "OUTSIDE\n");
    current.reset();
    CHECK(platform::held_root_count() == before);
}

TEST_CASE("workspace (issue 39, item 2): past the bound of held folders a root is refused, never opened by name") {
    TempTree t;
    std::vector<os::Workspace> alive;
    std::vector<std::string> refused;
    for (int round = 0; refused.empty() && round < 8; ++round) {
        std::vector<std::string> dirs;
        for (int i = 0; i < 64; ++i) {
            dirs.push_back(t.base + "/b" + std::to_string(round) + "-" + std::to_string(i));
            fs::create_directories(fs_path(dirs.back()));
        }
        alive.emplace_back(dirs);
        refused = alive.back().problems();
    }
    REQUIRE_FALSE(refused.empty());
    CHECK(refused.front().find("this server already holds " + std::to_string(platform::max_held_roots) +
                               " root folders open") != std::string::npos);
    CHECK(platform::held_root_count() == platform::max_held_roots);
    // Every root the workspace kept is held; the ones refused are not roots: paths under them are outside.
    for (const auto& root : alive.back().roots()) CHECK(platform::root_state(root) == platform::RootState::held);
    const std::string unheld = refused.front().substr(0, refused.front().find(" cannot be used"));
    const auto r = alive.back().resolve(unheld + "/x.txt");
    REQUIRE_FALSE(r.ok());
    CHECK((r.error().reason == base::ErrorReason::outside_root || r.error().reason == base::ErrorReason::no_root));
    alive.clear();
    CHECK(platform::held_root_count() < platform::max_held_roots);
}
#endif
