// The operating-system surface in one place: path resolution, file kinds and identity, reading a
// regular file without ever blocking on a FIFO or device, atomic writes. POSIX (Linux, macOS) in
// platform_posix.cpp and file_writes_posix.cpp; Windows in platform_windows.cpp and
// file_writes_windows.cpp.
//
// Paths are UTF-8 everywhere above this layer, with `/` as the separator: on Windows a real path
// reads "C:/dir/file.txt" or "//server/share/dir/file.txt" (the implementation speaks UTF-16 and
// `\\?\` long paths to the system).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace platform {

enum class FileKind { missing, regular, directory, fifo, socket, char_device, block_device, other };

struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    bool operator==(const FileIdentity&) const = default;
};

struct FileStat {
    FileKind kind = FileKind::missing;
    FileIdentity identity;
    std::uint64_t size = 0;
    std::uint32_t mode = 0;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::uint64_t links = 1;
    std::int64_t mtime_ns = 0;
    std::int64_t ctime_ns = 0;

    // Same file, same size, untouched since: what a re-check before a write relies on first.
    bool same_version(const FileStat& o) const {
        return kind == o.kind && identity == o.identity && size == o.size && mtime_ns == o.mtime_ns &&
               ctime_ns == o.ctime_ns;
    }
};

// --- Confinement ---------------------------------------------------------------------------
// Holds a descriptor of the directory `real_dir` (a root) for the life of the process. From then
// on every operation of this layer on a path under it (reads, stats, writes, folders, removals)
// reaches the path from that descriptor down and follows no symlink on the way: the paths given
// here are real paths, checked against the roots, so a symlink met on the way means the tree
// changed after the check, and the operation fails rather than follow it. A symlink inside a root
// keeps working: it is resolved (and checked) before the path reaches this layer. Windows: not
// yet (paths are opened by name there).
void hold_directory(const std::string& real_dir);

// --- Path syntax ---------------------------------------------------------------------------------

// Absolute on this system: /x on POSIX; C:/x, C:\x, //server/share/x, \\server\share\x or \\?\C:\x on Windows.
bool is_absolute(std::string_view path);
// `path` in the form this layer returns: on Windows `\` becomes `/` and a `\\?\` or `\\?\UNC\`
// prefix is removed; unchanged on POSIX.
std::string normalize_separators(std::string path);
// The part of an absolute path that has no parent: "/" on POSIX; "C:/" or "//server/share/" on
// Windows; "" when `path` is not absolute.
std::string filesystem_root(std::string_view path);
// Whether two real paths name the same place as the file system compares names: byte for byte on
// POSIX, case-insensitively on Windows (as NTFS does, through the system's own upper-casing).
bool same_path(std::string_view a, std::string_view b);

// Windows: while this lives, a console close, logoff or shutdown event calls `request_stop` (on
// another thread); the process then has a few seconds to finish. Its destruction unhooks the call
// (waiting for one under way), so what `request_stop` refers to may die after it, never before:
// a hook kept to the end of the process would run its captures' destructors among the static
// ones, after main's objects are gone. Elsewhere it does nothing: SIGTERM covers it.
class ConsoleCloseHook {
public:
    explicit ConsoleCloseHook(std::function<void()> request_stop);
    ~ConsoleCloseHook();
    ConsoleCloseHook(const ConsoleCloseHook&) = delete;
    ConsoleCloseHook& operator=(const ConsoleCloseHook&) = delete;
};

// errno-style failure text for messages ("Permission denied").
std::string error_text(int err);

// The user's home directory ($HOME, else the password database); nullopt when neither names an
// absolute path.
std::optional<std::string> home_directory();

// realpath(3): the absolute path with every symlink, `.` and `..` resolved; nullopt (with errno
// in *err) when it does not exist or cannot be resolved.
std::optional<std::string> real_path(const std::string& path, int* err = nullptr);

// stat(2) following symlinks; under a held root no symlink is followed (a path through one is
// missing, a symlink at the end is FileKind::other).
FileStat stat_path(const std::string& path);

// Whether this user may change the file `path` whose stat is `st`: not when its permission bits
// allow nobody to write it (mode 0444, the Windows read-only attribute; root included, as editors
// treat it), nor when an access check for this user says no. The failure (not_writable) says why
// ("it is read-only (mode 0444)") for a message.
base::Result<void> may_write(const std::string& path, const FileStat& st);

// lstat(2): is `path` itself a symbolic link (dangling or not)?
bool is_symlink(const std::string& path);

const char* describe(FileKind kind);  // "a directory", "a FIFO", ...

struct ReadFile {
    std::string bytes;
    FileStat stat;
    // With keep_open: the file's descriptor, closed when the last copy of this goes. Holding it
    // across a replace defers freeing the old file's blocks (work in rename) until it is closed.
    std::shared_ptr<const void> open_file;
};

struct ReadFailure {
    enum class Why { not_found, not_regular, too_large, io } why = Why::io;
    FileKind kind = FileKind::missing;
    std::uint64_t size = 0;
    std::string detail;

    // The failures a reader returns: an I/O error or missing file, something not a regular file,
    // a file over the limit (shared by read_regular_file and the search reader).
    static base::Unexpected<ReadFailure> failed(Why why, std::string detail) {
        return base::fail(ReadFailure{why, FileKind::missing, 0, std::move(detail)});
    }
    static base::Unexpected<ReadFailure> not_regular_file(FileKind kind) {
        return base::fail(ReadFailure{Why::not_regular, kind, 0, {}});
    }
    static base::Unexpected<ReadFailure> over_limit(std::uint64_t size) {
        return base::fail(ReadFailure{Why::too_large, FileKind::missing, size, {}});
    }
};

// Reads a whole regular file. Opens with O_NONBLOCK so a FIFO or device never blocks, then
// refuses anything that is not a regular file, and files larger than `max_size`. Under a held
// root no symlink is followed, the last component included. The failure says which refusal (or
// I/O error) it was; nothing of a refused file is returned. With `at_most`, only the file's first
// `at_most` bytes are read (what it is, by its magic bytes, without the cost of reading it all) and
// stat.size stays the whole file's size.
base::Result<ReadFile, ReadFailure> read_regular_file(const std::string& path, std::uint64_t max_size,
                                                      bool keep_open = false,
                                                      std::size_t at_most = static_cast<std::size_t>(-1));

std::string current_directory();

// The absolute path of this running executable, in the system's own spelling (backslashes on
// Windows): what a host's configuration must name to start it.
std::optional<std::string> executable_path();

// --- Writing -------------------------------------------------------------------------------
// A replacement is staged in a temp file beside the target (O_EXCL, written, fsynced, mode and
// owner copied), then renamed over the target and the directory fsynced: a crash leaves the old
// or the new file, never a mix. Several staged files can be committed together (apply_diff).

struct StagedWrite {
    std::string temp_path;
    std::string target;
    // POSIX: the folder the temp file was made in and the temp file itself (locked, so that a
    // later server can tell a live server's temp file from one a killed server left behind).
    std::shared_ptr<void> held;
};

// `like`: the existing file whose mode and owner the new one takes; nullptr for a new file
// (mode 0666 less the umask). Failures (io_error) are lower-case phrases a caller quotes
// ("cannot create a temp file in /d: Permission denied").
// The new bytes come as consecutive parts (an edit of a big file: the bytes before, the new text,
// the bytes after), written one after the other.
base::Result<StagedWrite> stage_write(const std::string& target, std::span<const std::string_view> parts,
                                      const FileStat* like, bool sync);
inline base::Result<StagedWrite> stage_write(const std::string& target, std::string_view bytes, const FileStat* like,
                                             bool sync) {
    return stage_write(target, std::span<const std::string_view>(&bytes, 1), like, sync);
}
base::Result<void> commit_staged(const StagedWrite& staged, bool sync);
void discard_staged(const StagedWrite& staged);

// For a file with several hard links, which a rename would split: the bytes are written over the
// file itself (a durable copy of the old bytes is kept beside it until the write is synced).
base::Result<void> overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes,
                                      bool sync);

// Creates the missing directories of `dir` (like mkdir -p) and syncs their parents. Fails with
// not_a_file when `dir` (or a folder on the way) exists as something else.
base::Result<void> make_directories(const std::string& dir, bool sync);

base::Result<void> remove_file(const std::string& path, bool sync);
// Removes the folder `path` when it is empty (rmdir: a folder with anything in it stays, and
// the failure says it is not empty), reached like a write; then syncs its parent.
base::Result<void> remove_empty_directory(const std::string& path, bool sync);

// --- Private scratch files -------------------------------------------------------------------
// A new directory only this user can enter (mode 0700), in the system's temp directory, named
// `prefix` plus a random suffix; nullopt when none can be made.
std::optional<std::string> make_private_directory(const std::string& prefix);
// Creates `path` (which must not exist) readable by this user only (0600) and writes `bytes`.
bool write_private_file(const std::string& path, std::string_view bytes);
// Removes an empty directory; false when it cannot.
bool remove_directory(const std::string& path);

// --- One process at a time -------------------------------------------------------------------
// An exclusive lock on the file `path` (created, mode 0600, when missing), held until the object
// is destroyed or the process ends (the OS drops it even after a crash). POSIX: flock; Windows:
// LockFileEx. Not waited for: when another process holds it, take_lock fails at once and says so
// (reason conflict; any other failure is io_error).
class FolderLock;
class FileLock {
public:
    FileLock() = default;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();
    bool held() const { return handle_ != nullptr; }

private:
    friend base::Result<void> take_lock(const std::string& path, FileLock& lock);
    friend base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);  // Windows: one take_lock
    void* handle_ = nullptr;  // the open file (POSIX: its descriptor + 1)
};
base::Result<void> take_lock(const std::string& path, FileLock& lock);

// The lock every mcp-edit process on this machine takes for the folder `dir` around the re-check
// and the rename of a file in it, so that of two servers on one tree the second re-checks against
// the first one's result. Held until the object is destroyed (or the process ends).
// POSIX (os/folder_lock_posix.cpp): flock on `.mcp-edit-lock`, a file created (mode 0600) in the
// folder and removed when let go. Taking it needs what the write needs anyway, permission to write
// the folder: any process that can merely read a folder could flock the folder itself and stall
// every write there. A folder this user cannot write (where only in-place writes happen) is
// flocked itself. Windows: LockFileEx on a lock file named after the folder in the user's temp
// folder.
class FolderLock {
public:
    FolderLock() = default;
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock();
    bool held() const { return handle_ != nullptr; }

private:
    friend base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);
    void* handle_ = nullptr;  // the locked file (POSIX: its descriptor + 1)
    int folder_ = -1;         // POSIX: the folder's descriptor, to remove the lock file when let go
};

// One try at the lock of the folder `dir`, never waiting: true when taken; false when another
// process holds it (the caller waits without blocking and tries again: see tools/pipeline/transaction.cpp).
// Fails (io_error) when the folder cannot be opened or its lock file is not a plain file.
base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);

// Who holds the lock of the folder `dir`, in words for an error or the log, such as
// "process 4242 (mcp-edit, user alice, stopped)"; "" when it cannot be told (Windows; a process
// this one cannot see). Reads /proc/locks on Linux.
std::string folder_lock_holder(const std::string& dir);

// --- Child processes (post-write checks) -------------------------------------------------------
// A program run to completion with no shell: argv[0] looked up on PATH, in `directory`, with the
// server's environment, stdin empty, stdout and stderr merged into one bounded buffer. It runs in
// a process group of its own, killed whole at the deadline or when `cancelled` turns true.
// POSIX: posix_spawn + poll (os/process_posix.cpp); Windows needs CreateProcessW with a job object.

struct ProcessRun {
    std::vector<std::string> argv;  // argv[0]: the program
    std::string directory;          // working directory
    std::chrono::milliseconds timeout{10000};
    std::size_t max_output = 64 * 1024;  // bytes kept of the merged output; the rest is read and dropped
    const std::atomic<bool>* cancelled = nullptr;
};

struct ProcessOutcome {
    bool started = false;  // false: `error` says why (program not found, ...)
    std::string error;
    std::optional<int> exit_code;  // nullopt when it ended by a signal (or was killed)
    int signal = 0;                // the signal that ended it, 0 when it exited
    bool timed_out = false;
    bool cancelled = false;
    std::string output;  // stdout and stderr as they came, at most max_output bytes
    bool output_truncated = false;
    std::chrono::milliseconds duration{0};
};

ProcessOutcome run_process(const ProcessRun& run);

// A program kept running and spoken to through its standard input and output (a language
// server). What it writes to stderr is read on a thread of its own; the last max_error_output
// bytes are kept for messages. Started in a process group (POSIX) or job object (Windows) of its
// own, so stop() ends what it started too. One thread reads, one writes at a time.
class ChildProcess {
public:
    static constexpr std::size_t max_error_output = 4096;

    ChildProcess();
    ~ChildProcess();  // stop(0)
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Fails when it cannot be started: not_found for a program that is not there (not on PATH, or
    // the directory missing), invalid_arguments for an empty argv, io_error otherwise; the message
    // says why ("cannot start clangd in /p: No such file or directory (is it installed ...)").
    base::Result<void> start(const std::vector<std::string>& argv, const std::string& directory);
    // Blocks until all is written; false once it stopped reading (it exited).
    bool write(std::string_view bytes);
    // Blocks until some output is there; 0 at the end of its output.
    std::size_t read(char* buffer, std::size_t size);
    // Waits at most `grace` for it to exit (ask it to first), then kills it and what it started,
    // and reaps it. read() then returns 0 and write() false; the pipes are closed by the
    // destructor, so a thread still in read() or write() is safe. Safe to call more than once.
    void stop(std::chrono::milliseconds grace);
    std::string error_output() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Removes a directory made by make_private_directory and whatever a check left in it.
bool remove_private_directory(const std::string& path);

}  // namespace platform
