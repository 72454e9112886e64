// libFuzzer target: the --history-dir journal reader on any bytes (the journal is input, not trust).
// Promises: no crash or unbounded recursion, and nothing replayed names a path outside the root
// (neither a change's file nor a move's other file).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "base/log.hpp"
#include "os/ignore_files.hpp"
#include "os/workspace.hpp"
#include "ledger/history.hpp"
#include "ledger/history_journal.hpp"
#include "ledger/session_changes.hpp"

namespace {

// A root made once per process: the paths replayed are judged against it as a live call's would be.
struct Setup {
    std::string root;
    os::Workspace workspace;
    os::IgnoreFiles ignore{os::IgnoreSettings{}};
    Setup() : root(make_root()), workspace({root}) { base::log::set_level(base::log::Level::off); }
    static std::string make_root() {
        const auto dir = std::filesystem::temp_directory_path() / "mcp-edit-fuzz-journal-root";
        std::filesystem::create_directories(dir);
        return dir.generic_string();
    }
};

bool inside(const std::string& path, const os::Workspace& workspace) {
    return workspace.inside_roots(path) && path.find("/../") == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Setup setup;
    ledger::History history(1u << 20, 1000);
    ledger::SessionChanges changes;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    const auto read = [&rest](char* out, std::size_t n) {
        if (rest.size() < n) return false;
        rest.copy(out, n);
        rest.remove_prefix(n);
        return true;
    };
    const auto replay = ledger::HistoryJournal::replay(read, size, setup.workspace, &setup.ignore, history, changes);
    if (replay.good_bytes > size || replay.dropped > replay.records) std::abort();
    // No file is read back here: steps that need a file's current bytes are left out of the export.
    for (const auto& e : history.export_all([](const std::string&) { return std::optional<std::string>(); }))
        if (!inside(e.real_path, setup.workspace) ||
            (!e.entry.partner.empty() && !inside(e.entry.partner, setup.workspace)))
            std::abort();  // a move's other path is a path undo acts on too
    for (const auto& f : changes.files())
        if (!inside(f.real_path, setup.workspace)) std::abort();
    // Any single record decodes within its bounds, or not at all.
    (void)ledger::HistoryJournal::decode_record(data, size);
    return 0;
}
