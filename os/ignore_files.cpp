// Ignore files looked up from the root down, cached by path and re-read when they change.
#include "os/ignore_files.hpp"

#include <utility>

#include "os/paths.hpp"
#include "os/file_reads.hpp"
#include "os/system_paths.hpp"

namespace os {

bool IgnoreFiles::same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (IgnoreFiles::fold_case) {
            if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
            if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        }
        if (x != y) return false;
    }
    return true;
}

IgnoreFiles::IgnoreFiles(IgnoreSettings settings) : settings_(std::move(settings)) {}

std::optional<IgnoreRefusal> IgnoreFiles::refuse_write(const std::string& root, const std::string& real,
                                                       bool is_directory) {
    const std::string relative = relative_to_root(root, real);
    if (relative.empty()) return std::nullopt;
    std::size_t start = 0;
    for (;;) {
        const std::size_t slash = relative.find('/', start);
        const std::string_view component = std::string_view(relative).substr(start, slash - start);
        if (same_name(component, ".git")) {
            IgnoreRefusal refusal;
            refusal.kind = IgnoreRefusal::Kind::git_directory;
            refusal.ignored_path = relative.substr(0, slash);
            return refusal;
        }
        if (slash == std::string::npos) {
            for (const auto& name : settings_.names)
                if (same_name(component, name)) {
                    IgnoreRefusal refusal;
                    refusal.kind = IgnoreRefusal::Kind::ignore_file;
                    refusal.ignored_path = relative;
                    refusal.file = relative;
                    return refusal;
                }
            break;
        }
        start = slash + 1;
    }
    return by_rules(root, relative, is_directory);
}

std::optional<IgnoreRefusal> IgnoreFiles::refuse_read(const std::string& root, const std::string& real) {
    if (!settings_.ignore_reads) return std::nullopt;
    const std::string relative = relative_to_root(root, real);
    if (relative.empty()) return std::nullopt;
    return by_rules(root, relative, false);
}

std::optional<IgnoreRefusal> IgnoreFiles::refuse_listing(const std::string& root, const std::string& real,
                                                         bool is_directory) {
    const std::string relative = relative_to_root(root, real);
    if (relative.empty()) return std::nullopt;
    std::size_t start = 0;
    for (;;) {
        const std::size_t slash = relative.find('/', start);
        if (same_name(std::string_view(relative).substr(start, slash - start), ".git")) {
            IgnoreRefusal refusal;
            refusal.kind = IgnoreRefusal::Kind::git_directory;
            refusal.ignored_path = relative.substr(0, slash);
            return refusal;
        }
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return by_rules(root, relative, is_directory);
}

std::vector<std::shared_ptr<const IgnoreFile>> IgnoreFiles::folder_files(
    const std::string& root, const std::string& directory, const std::function<bool(std::string_view)>& present) {
    std::vector<std::shared_ptr<const IgnoreFile>> files;
    const auto add = [&](const std::string& name) {
        const std::string shown = join_path(directory, name);
        if (auto file = load(join_path(root, shown), shown, directory)) files.push_back(std::move(file));
    };
    if (settings_.respect_gitignore && directory.empty() && present(".git")) add(".git/info/exclude");
    if (settings_.respect_gitignore && present(".gitignore")) add(".gitignore");
    for (const auto& name : settings_.names)
        if (present(name)) add(name);
    return files;
}

std::optional<IgnoreRefusal> IgnoreFiles::listing_verdict(const std::vector<const IgnoreFile*>& files,
                                                          std::string_view relative, bool is_directory) {
    for (auto file = files.rbegin(); file != files.rend(); ++file) {
        const std::string& dir = (*file)->directory;
        if (!dir.empty() &&
            !(relative.size() > dir.size() && relative.substr(0, dir.size()) == dir && relative[dir.size()] == '/'))
            continue;
        const std::string_view below = dir.empty() ? relative : relative.substr(dir.size() + 1);
        const IgnoreRule* rule = (*file)->last_match(below, is_directory, fold_case);
        if (!rule) continue;
        if (rule->negated) return std::nullopt;
        IgnoreRefusal refusal;
        refusal.ignored_path = std::string(relative);
        refusal.rule = rule->text;
        refusal.file = (*file)->path;
        refusal.line = rule->line;
        return refusal;
    }
    return std::nullopt;
}

std::optional<IgnoreRefusal> IgnoreFiles::by_rules(const std::string& root, const std::string& relative,
                                                   bool is_directory) {
    if (settings_.names.empty() && !settings_.respect_gitignore) return std::nullopt;
    std::vector<std::shared_ptr<const IgnoreFile>> held;
    const auto add = [&](const std::string& directory, const std::string& name) {
        const std::string shown = join_path(directory, name);
        if (auto file = load(join_path(root, shown), shown, directory)) held.push_back(std::move(file));
    };
    if (settings_.respect_gitignore) add("", ".git/info/exclude");
    // The root's folder, then each folder on the way to the path.
    std::size_t end = 0;
    for (std::string directory;;) {
        if (settings_.respect_gitignore) add(directory, ".gitignore");
        for (const auto& name : settings_.names) add(directory, name);
        end = relative.find('/', directory.empty() ? 0 : end + 1);
        if (end == std::string::npos) break;
        directory = relative.substr(0, end);
    }
    std::vector<const IgnoreFile*> files;
    files.reserve(held.size());
    for (const auto& file : held) files.push_back(file.get());
    const auto verdict = ignored(files, relative, is_directory, fold_case);
    if (!verdict) return std::nullopt;
    IgnoreRefusal refusal;
    refusal.ignored_path = verdict->ignored_path;
    refusal.rule = verdict->rule->text;
    refusal.file = verdict->file->path;
    refusal.line = verdict->rule->line;
    return refusal;
}

std::shared_ptr<const IgnoreFile> IgnoreFiles::load(const std::string& named, std::string shown,
                                                    const std::string& directory) {
    // An ignore file may be a symlink (to a shared one): its rules hold all the same. The platform
    // layer follows no symlink under a root, so the link is resolved here first.
    // Most folders have no ignore file: one stat says so, before realpath's readlink per component.
    const os::FileStat first = os::stat_path(named);
    if (first.kind == os::FileKind::missing) return nullptr;
    const std::string path = first.kind == os::FileKind::regular ? named : os::real_path(named).value_or(named);
    const os::FileStat stat = first.kind == os::FileKind::regular ? first : os::stat_path(path);
    if (stat.kind != os::FileKind::regular) return nullptr;
    {
        std::lock_guard lock(mutex_);
        const auto found = cache_.find(path);
        if (found != cache_.end() && found->second.stat.same_version(stat)) return found->second.file;
    }
    std::string text;
    os::FileStat read_stat = stat;  // of the file read, when it was
    if (stat.size <= max_ignore_file_size) {
        if (auto read = os::read_regular_file(path, max_ignore_file_size)) {
            text = std::move(read->bytes);
            read_stat = read->stat;
        }
    }
    auto file = std::make_shared<const IgnoreFile>(IgnoreFile::parse(text, std::move(shown), directory));
    std::lock_guard lock(mutex_);
    if (cache_.size() >= max_cached_files) cache_.clear();
    cache_[path] = Cached{read_stat, file};
    return file;
}

}  // namespace os
