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
    if (directory) fs::create_directory_symlink(fs_path(target), fs_path(link), ec);
    else fs::create_symlink(fs_path(target), fs_path(link), ec);
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
    const fs::path dir = fs::temp_directory_path(ec) /
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
    static void set(const std::optional<std::wstring>& value) { SetEnvironmentVariableW(name, value ? value->c_str() : nullptr); }
    static void set(const std::string& dir) { set(std::optional<std::wstring>(fs_path(dir).make_preferred().wstring())); }
    std::optional<std::wstring> saved_;
#else
    static std::optional<std::string> get() {
        const char* value = std::getenv("HOME");
        return value ? std::optional<std::string>(value) : std::nullopt;
    }
    static void set(const std::optional<std::string>& value) {
        if (value) ::setenv("HOME", value->c_str(), 1);
        else ::unsetenv("HOME");
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
    CHECK_FALSE(ws.resolve("sub/../../outside/new.txt").ok());
    CHECK_FALSE(ws.resolve(drive_of(t.base) + "etc/passwd").ok());
    CHECK_FALSE(ws.resolve("/etc/passwd").ok());  // on Windows: on the root's drive, still outside
    CHECK_FALSE(ws.resolve(std::string("a\0b", 3)).ok());
    CHECK_FALSE(ws.resolve("").ok());
}

TEST_CASE("workspace: symlinks inside resolve; symlinks out, dangling or through a folder are refused" *
          doctest::skip(!links_work())) {
    TempTree t;
    REQUIRE(t.make_links());
    os::Workspace ws({t.root()});
    const auto inside = ws.resolve("inside-link");
    REQUIRE(inside.ok());
    CHECK(inside->display == "a.txt");
    const auto escape = ws.resolve("escape");
    REQUIRE_FALSE(escape.ok());
    CHECK(escape.error().message.find("outside the allowed roots") != std::string::npos);
    CHECK(escape.error().message.find("escape resolves to " + t.outside() + "/secret.txt") != std::string::npos);
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
    CHECK(up.error().message.find("..") != std::string::npos);
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
    CHECK(kept.note == "The client's roots (" + outside + ") are outside this server's --root (" + root + "); --root is used.");
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
    CHECK(refused.error().message.find("the client's roots; this server was started without --root") != std::string::npos);

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
    CHECK(absent.error().message.find("Refused: " + missing + " is outside the allowed roots (" + root +
                                      "): it does not exist, and its nearest existing folder, " + drive +
                                      ", is outside them.") == 0);
    CHECK(absent.error().message.find("e.g. a path relative to " + root) != std::string::npos);
    // A tail of it exists in the root: the message names it.
    const auto tail = ws.resolve(drive + "repo-mcp-edit/a.txt");
    REQUIRE_FALSE(tail.ok());
    CHECK(tail.error().message.find(" " + root + "/a.txt exists: if that is the file meant, pass a.txt.") != std::string::npos);
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
    CHECK_FALSE(ws.resolve("..\\outside\\secret.txt").ok());
    const auto long_outside = ws.resolve("\\\\?\\" + backslashed(t.outside()) + "\\secret.txt");
    REQUIRE_FALSE(long_outside.ok());
    CHECK(long_outside.error().reason == base::ErrorReason::outside_root);
    const auto upper_outside = ws.resolve(upper(t.outside()) + "/SECRET.TXT");
    REQUIRE_FALSE(upper_outside.ok());
    CHECK(upper_outside.error().reason == base::ErrorReason::outside_root);
    // A root beside it whose name starts the same is not inside it.
    fs::create_directories(fs_path(t.base + "/rootish"));
    CHECK_FALSE(ws.resolve(t.base + "/ROOTISH/x.txt").ok());
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
