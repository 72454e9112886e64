// Session diffs: a base against the file on disk, through the same unified diff the tools show.
#include "ledger/session_patch.hpp"

#include "os/file_reads.hpp"
#include "text/diff/unified_diff.hpp"
#include "text/diff/unified_headers.hpp"
#include "ledger/fingerprint.hpp"

namespace ledger {

std::string session_file_uri(std::string_view real_path) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string uri(session_file_uri_prefix);
    if (!real_path.empty() && real_path.front() == '/') real_path.remove_prefix(1);
    for (const char ch : real_path) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == '/') {
            uri += ch;
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri;
}

FileDiff diff_now(const SessionChanges::File& file, const os::Workspace& workspace, std::uint64_t max_file_size,
                  bool withhold_linked) {
    FileDiff out;
    out.real_path = file.real_path;
    out.display = workspace.display_path(file.real_path);
    out.uri = session_file_uri(file.real_path);
    out.changes = file.changes;
    out.created = !file.existed;
    auto read = os::read_regular_file(file.real_path, max_file_size);
    const bool exists = read.ok();
    if (!exists && read.error().why != os::ReadFailure::Why::not_found) {
        out.note = out.display + ": cannot be read now (" +
                   (read.error().why == os::ReadFailure::Why::too_large ? std::string("over --max-file-size")
                                                                        : read.error().detail) +
                   ")";
        return out;
    }
    os::ReadFile now;
    if (exists) now = std::move(*read);
    if (exists && withhold_linked && now.stat.links > 1) {
        out.note = out.display +
                   ": not shown: it has other names (hard links) now, and with --ignore-reads a file that "
                   "may be an ignored file under another name is not read";
        return out;
    }
    out.deleted = !exists;
    std::optional<std::string> base;
    if (file.existed) base = file.base_given(exists ? &now.bytes : nullptr);
    if (file.existed && !base) {
        out.note = out.display + ": its bytes from before this session's first change are not kept (" +
                   (file.base_pending ? std::string("being recorded")
                    : file.delta ? std::string("a big file is kept as the bytes this server replaced, and it changed "
                                               "outside this server since its last write")
                                 : std::string("over the --history-budget cap of kept bases")) +
                   ")";
        return out;
    }
    if (!file.existed && !exists) return out;  // created, then deleted: nothing to show
    text::DiffOptions options;
    options.old_path = out.display;
    options.old_missing = !file.existed;
    options.new_missing = !exists;
    options.max_bytes = max_diff_bytes_per_file;
    options.exact_lines = true;  // a patch to apply: CRs kept
    const auto diff = text::unified_diff(file.existed ? std::string_view(*base) : std::string_view(),
                                         exists ? std::string_view(now.bytes) : std::string_view(), options);
    out.additions = diff.additions;
    out.removals = diff.removals;
    out.diff = diff.text;
    if (!file.existed && exists)
        out.content = Fingerprint::of(now.bytes).hex;
    else if (file.existed && !exists)
        out.content = Fingerprint::of(*base).hex;
    return out;
}

namespace {

// A path as a diff header shows it, after `side` ("a/", "b/" or none): the leading "/" of an
// absolute one dropped, as unified_diff does, and quoted as git quotes it when it holds a newline or
// another byte that would end or forge a line of the patch.
std::string header_path(std::string_view side, std::string_view display) {
    if (!display.empty() && display.front() == '/') display.remove_prefix(1);
    return text::quote_path(side, display);
}

// A note's `# ` line: a control character in it (a newline in a file's name, say) written as a C
// escape, so that a note is one line of the patch and never a line of a diff.
std::string comment_line(std::string_view note) {
    std::string quoted = text::quote_path("", note);
    if (quoted != note) quoted = quoted.substr(1, quoted.size() - 2);  // the escapes, not the quotes
    return "# " + quoted + "\n";
}

}  // namespace

std::string rename_header(std::string_view from_display, std::string_view to_display) {
    return "diff --git " + header_path("a/", from_display) + " " + header_path("b/", to_display) +
           "\nsimilarity index 100%\nrename from " + header_path("", from_display) + "\nrename to " +
           header_path("", to_display) + "\n";
}

namespace {

// Each created file that holds exactly the bytes of a file deleted in this session is shown as
// that file renamed, as git shows a move: one header, no content lines.
void pair_renames(std::vector<FileDiff>& files) {
    for (auto& created : files) {
        if (!created.created || created.deleted || created.content.empty()) continue;
        for (auto& gone : files) {
            if (gone.created || !gone.deleted || gone.renamed_to || gone.content != created.content) continue;
            created.diff = rename_header(gone.display, created.display);
            created.additions = created.removals = gone.additions = gone.removals = 0;
            gone.diff.clear();
            created.renamed_from = gone.real_path;
            gone.renamed_to = created.real_path;
            break;
        }
    }
}

}  // namespace

SessionPatch session_patch(const std::vector<SessionChanges::File>& files, const os::Workspace& workspace,
                           std::uint64_t max_file_size, bool withhold_linked) {
    SessionPatch patch;
    for (const auto& file : files) patch.files.push_back(diff_now(file, workspace, max_file_size, withhold_linked));
    pair_renames(patch.files);
    for (const auto& diff : patch.files) {
        if (!diff.note.empty()) patch.text += comment_line(diff.note);
        if (!diff.diff.empty()) {
            patch.text += diff.diff;
            if (patch.text.back() != '\n') patch.text += '\n';
            ++patch.files_differing;
        }
        patch.additions += diff.additions;
        patch.removals += diff.removals;
    }
    return patch;
}

}  // namespace ledger
