// Which paths the ignore files refuse: the ignore files (`--ignore-file` names, `.gitignore` and
// `.git/info/exclude` with `--respect-gitignore`) found in a root and in the folders between it
// and a path, each read once and read again when it changes (its size, time or identity), in a
// bounded cache shared by every call; and `.git` folders, never written. Thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "os/ignore_rules.hpp"
#include "os/file_status.hpp"

namespace os {

struct IgnoreSettings {
    std::vector<std::string> names{".mcp-editignore"};  // file names looked up in every folder
    bool respect_gitignore = false;                     // also .gitignore and the root's .git/info/exclude
    bool ignore_reads = false;                          // refuse reading ignored files too
};

// Why a path may not be touched, for the message a model reads.
struct IgnoreRefusal {
    std::string ignored_path;  // relative to the root: the path, or the folder above it, that is ignored
    std::string rule;          // the rule as written; "" for a .git folder or an ignore file itself
    std::string file;          // the ignore file, relative to the root
    std::size_t line = 0;
    enum class Kind { rule, git_directory, ignore_file } kind = Kind::rule;
};

class IgnoreFiles {
public:
    static constexpr std::size_t max_cached_files = 4096;
    static constexpr std::uint64_t max_ignore_file_size = 1u << 20;  // larger ignore files count as empty

    explicit IgnoreFiles(IgnoreSettings settings);

    const IgnoreSettings& settings() const { return settings_; }

    // For a write of `real` (a real path inside `root`): refused inside a `.git` folder, for one of
    // the --ignore-file files themselves (an agent could otherwise lift the rules), and when a rule
    // ignores it.
    std::optional<IgnoreRefusal> refuse_write(const std::string& root, const std::string& real,
                                              bool is_directory = false);
    // For a read: refused only with --ignore-reads, when a rule ignores it.
    std::optional<IgnoreRefusal> refuse_read(const std::string& root, const std::string& real);

    // --- Listing and finding (os/directory_walk): ignored paths are left out of every listing.
    // Whether `real` itself (the folder a listing starts from) is left out: inside a `.git` folder,
    // or ignored by a rule. The ignore files themselves are listed.
    std::optional<IgnoreRefusal> refuse_listing(const std::string& root, const std::string& real, bool is_directory);
    // Any rules to read at all (ignore file names, or --respect-gitignore)?
    bool has_rules() const { return !settings_.names.empty() || settings_.respect_gitignore; }
    // The ignore files of the folder `directory` (relative to `root`; "" for the root, which
    // starts with `.git/info/exclude` under --respect-gitignore), in the order by_rules reads them;
    // `present(name)` says whether the folder holds a file of that name (a walk knows it already,
    // so absent names cost nothing).
    std::vector<std::shared_ptr<const IgnoreFile>> folder_files(const std::string& root, const std::string& directory,
                                                                const std::function<bool(std::string_view)>& present);
    // Whether a listing leaves out `relative` (relative to the root): `files` are the ignore files
    // of the folders from the root down to its parent, none of them ignored (a walk never enters
    // an ignored folder), so only the path itself is decided.
    static std::optional<IgnoreRefusal> listing_verdict(const std::vector<const IgnoreFile*>& files,
                                                        std::string_view relative, bool is_directory);

    // Ignore file names compare as the file system does: case-insensitively on Windows and macOS.
    // Whether two file names are the same name, as the file system compares them (see fold_case).
    static bool same_name(std::string_view a, std::string_view b);

    static constexpr bool fold_case =
#if defined(_WIN32) || defined(__APPLE__)
        true;
#else
        false;
#endif

private:
    std::optional<IgnoreRefusal> by_rules(const std::string& root, const std::string& relative, bool is_directory);
    // The parsed file at `path` (shown as `shown`, speaking of `directory`); nullptr when absent.
    std::shared_ptr<const IgnoreFile> load(const std::string& path, std::string shown, const std::string& directory);

    struct Cached {
        os::FileStat stat;
        std::shared_ptr<const IgnoreFile> file;
    };
    IgnoreSettings settings_;
    std::mutex mutex_;
    std::unordered_map<std::string, Cached> cache_;
};

}  // namespace os
