// What the directory walk's unit tests share: a temp tree (root/ and outside/ beside it, the root
// held like a server root) and a visitor that records each entry as one line.
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "os/directory_walk.hpp"
#include "os/system_paths.hpp"

namespace walk_test {

namespace fs = std::filesystem;

namespace {

struct WalkTree {
    fs::path base;  // holds root/ and outside/
    std::string root;
    WalkTree() {
        base = fs::temp_directory_path() / ("mcp-edit-walk-" + std::to_string(std::random_device{}()));
        fs::remove_all(base);
        fs::create_directories(base / "root");
        fs::create_directories(base / "outside");
        base = fs::canonical(base);
        root = *os::real_path((base / "root").generic_string());
        os::hold_directory(root);
    }
    ~WalkTree() {
        std::error_code ec;
        fs::permissions(base / "root" / "locked", fs::perms::owner_all, ec);
        fs::remove_all(base, ec);
    }
    void put(const std::string& relative, const std::string& text = "x") const {
        const fs::path p = base / "root" / relative;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
    }
    void dir(const std::string& relative) const { fs::create_directories(base / "root" / relative); }
    void link(const std::string& relative, const fs::path& target) const {
        fs::create_symlink(target, base / "root" / relative);
    }
};

inline const char* kind_name(os::EntryKind k) {
    return k == os::EntryKind::file ? "f" : k == os::EntryKind::directory ? "d" : "o";
}
inline const char* link_name(os::LinkKind k) {
    switch (k) {
        case os::LinkKind::none: return "";
        case os::LinkKind::inside: return " ->in";
        case os::LinkKind::outside: return " ->out";
        case os::LinkKind::broken: return " ->broken";
        case os::LinkKind::loop: return " ->loop";
    }
    return "";
}

struct Recorder : os::WalkVisitor {
    std::vector<std::string> seen;
    std::vector<std::string> unreadable;
    std::vector<std::string> left;
    std::string stop_at;
    std::string skip;
    std::atomic<bool>* cancel_after_first = nullptr;
    os::WalkStep entry(const os::WalkEntry& e) override {
        std::string line = std::string(e.path) + " " + kind_name(e.kind) + link_name(e.link);
        if (e.kind == os::EntryKind::file && e.stat_known) line += " " + std::to_string(e.size);
        if (e.ignored)
            line += " ignored:" +
                    (e.ignored->kind == os::IgnoreRefusal::Kind::git_directory ? std::string(".git") : e.ignored->rule);
        seen.push_back(line);
        if (cancel_after_first) *cancel_after_first = true;
        if (e.path == stop_at) return os::WalkStep::stop;
        if (e.path == skip) return os::WalkStep::skip;
        return os::WalkStep::go_on;
    }
    void leave_folder(std::string_view path, std::size_t depth, std::uint64_t unread) override {
        left.push_back(std::string(path) + "@" + std::to_string(depth) + "+" + std::to_string(unread));
    }
    void unreadable_folder(std::string_view path, std::string_view why) override {
        unreadable.push_back(std::string(path) + ": " + std::string(why));
    }
};

inline os::WalkSummary walk(const WalkTree& t, const os::Workspace& ws, Recorder& r, os::IgnoreFiles* ignore = nullptr,
                            std::size_t depth = 64, const std::string& start = "") {
    os::WalkOptions options;
    options.start = start.empty() ? t.root : t.root + "/" + start;
    options.workspace = &ws;
    options.ignore = ignore;
    options.max_depth = depth;
    return os::walk_directory(options, r);
}

}  // namespace

}  // namespace walk_test
