// What the workspace's unit tests share: a temp tree (root/ and outside/ beside it, and a second
// root for the several-roots cases), symlinks where this system makes them, client root URIs and
// the user's home pointed elsewhere. Portable: under Wine the paths are drive-letter paths (C:/...),
// file:///C:/ URIs and %USERPROFILE%. Wine 8 makes neither symlinks nor junctions
// (CreateSymbolicLinkW succeeds and creates nothing, a junction is ERROR_NOT_SUPPORTED): links_work()
// says so, and the cases that need links are reported as skipped there.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#ifdef _WIN32
#include <windows.h>
#endif

#include "os/scratch_files.hpp"
#include "os/system_paths.hpp"

namespace workspace_test {

namespace fs = std::filesystem;

inline fs::path fs_path(const std::string& utf8) { return fs::path(std::u8string(utf8.begin(), utf8.end())); }

// Makes `link` a symbolic link to `target`; false when this system makes none (see the top of this file).
inline bool make_symlink(const std::string& target, const std::string& link, bool directory) {
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
        const auto made = os::make_private_directory("mcp-edit-ws-");
        REQUIRE(made);
        const auto real = os::real_path(*made);
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
inline bool links_work() {
    std::error_code ec;
    const fs::path dir =
        fs::temp_directory_path(ec) /
        ("mcp-edit-ws-link-probe-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    if (ec || !fs::create_directory(dir, ec)) return false;
    std::ofstream(dir / "a.txt") << "a";
    const std::string spelled = os::normalize_separators(dir.generic_string());
    const bool work = make_symlink(spelled + "/a.txt", spelled + "/link", false);
    fs::remove_all(dir, ec);
    return work;
}

// A client root URI for an absolute path: file:///tmp/x, file:///C:/x.
inline std::string file_uri(const std::string& path) {
    return path.starts_with("/") ? "file://" + path : "file:///" + path;
}

// The file system root the temp folder is on: "/" or "C:/".
inline std::string drive_of(const std::string& path) { return os::filesystem_root(path); }

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

}  // namespace workspace_test
