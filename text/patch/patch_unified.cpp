// The unified-diff reader: sections (git header and/or ---/+++), their hunks, and the rules that
// decide where a hunk ends when its counts cannot be trusted. One forward pass, bounded lookahead.
// Over 300 lines: the UnifiedReader is one state machine over the lines; header lines are read in
// unified_headers.cpp.
#include "text/patch/patch_unified.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "text/patch/patch_text.hpp"
#include "text/paths/path_quoting.hpp"
#include "text/diff/unified_headers.hpp"

namespace text {

const char* const kUnifiedFormat =
    "A unified diff looks like this (a/ and b/ are optional; --- /dev/null creates a file, "
    "+++ /dev/null deletes one):\n"
    "--- a/PATH\n"
    "+++ b/PATH\n"
    "@@ -OLD_START,OLD_COUNT +NEW_START,NEW_COUNT @@\n"
    " a context line, copied from the file with a space before it\n"
    "-a line to remove, with a minus before it\n"
    "+a line to add, with a plus before it";

namespace {

constexpr std::string_view kDevNull = "/dev/null";

bool is_body_line(std::string_view line) {
    return !line.empty() && (line[0] == ' ' || line[0] == '-' || line[0] == '+');
}

struct Section {
    std::size_t line = 0;  // where it starts
    bool git = false;
    bool have_names = false;  // ---/+++ seen
    std::string old_name, new_name;
    std::string git_old, git_new;  // from the "diff --git" line
    std::optional<std::string> rename_from, rename_to;
    bool new_file = false, deleted_file = false;
    std::vector<PatchBlock> blocks;
};

class UnifiedReader {
public:
    explicit UnifiedReader(std::string_view patch) : text_(patch) {}

    base::Result<Patch, PatchError> run() {
        const std::size_t n = text_.size();
        std::size_t i = 0;
        while (i < n) {
            const std::string_view line = text_.line(i);
            if (line.starts_with("diff --git ")) {
                finish();
                open(i);
                current_->git = true;
                git_names(line.substr(11));
                ++i;
                continue;
            }
            if (line.starts_with("Binary files ") || line == "GIT binary patch") return binary_section(i);
            if (line.starts_with("--- ") && i + 1 < n && text_.line(i + 1).starts_with("+++ ")) {
                if (!current_ || !current_->git || current_->have_names || !current_->blocks.empty()) {
                    finish();
                    open(i);
                }
                current_->have_names = true;
                current_->old_name = header_name(line.substr(4));
                current_->new_name = header_name(text_.line(i + 1).substr(4));
                if (current_->old_name.empty() || current_->new_name.empty()) {
                    return malformed_.fail(PatchText::number(current_->old_name.empty() ? i : i + 1),
                                           "a file header names no file. " + std::string(kUnifiedFormat));
                }
                i += 2;
                continue;
            }
            if (line.starts_with("@@")) {
                if (!current_) open(i);
                auto next = hunk(i);
                if (!next.ok()) return base::fail(std::move(next.error()));
                i = next.value();
                continue;
            }
            if (current_ && current_->git && current_->blocks.empty() && !current_->have_names) git_header(line);
            ++i;
        }
        finish();
        return build();
    }

private:
    // A binary section (line i says so) is refused with the lines that make it up, so that the
    // next call can send the text sections alone.
    base::Unexpected<PatchError> binary_section(std::size_t i) const {
        const std::size_t n = text_.size();
        std::size_t first = i;
        if (current_ && current_->git && current_->line > 0) first = current_->line - 1;
        std::size_t last = i;
        while (last + 1 < n && !text_.line(last + 1).starts_with("diff --git ")) ++last;
        const bool whole = first == 0 && last + 1 == n;
        std::string name =
            current_ ? (!current_->new_name.empty() ? current_->new_name : current_->git_new) : std::string();
        if (name.starts_with("b/")) name.erase(0, 2);
        const std::string range = first == last ? "line " + std::to_string(first + 1)
                                                : "lines " + std::to_string(first + 1) + "-" + std::to_string(last + 1);
        std::string what = (whole ? "the patch is a binary change" : range + " are a binary change") +
                           (name.empty() ? std::string() : " to " + name) + ", and apply_diff changes text files only.";
        if (!whole) what += " Send the patch again without " + range + " to apply its text changes.";
        return malformed_.fail(PatchText::number(i), what);
    }

    void open(std::size_t i) {
        sections_.emplace_back();
        current_ = &sections_.back();
        current_->line = PatchText::number(i);
    }
    void finish() { current_ = nullptr; }

    // "a/x b/y" on the diff --git line: used when no ---/+++ or rename lines name the files.
    void git_names(std::string_view rest) {
        if (!rest.empty() && rest[0] == '"') {
            std::size_t at = 0;
            auto a = unquote(rest, &at);
            while (at < rest.size() && rest[at] == ' ') ++at;
            std::optional<std::string> b;
            if (at < rest.size() && rest[at] == '"') {
                b = unquote(rest, &at);
            } else if (at < rest.size()) {
                b = std::string(rest.substr(at));
            }
            if (a && b) {
                current_->git_old = *a;
                current_->git_new = *b;
            }
            return;
        }
        // Same name on both sides ("a/x y b/x y"): split in the middle; otherwise at " b/".
        if (rest.size() % 2 == 1) {
            const std::size_t mid = rest.size() / 2;
            if (rest[mid] == ' ' && strip_prefix(std::string(rest.substr(0, mid)), 'a') ==
                                        strip_prefix(std::string(rest.substr(mid + 1)), 'b')) {
                current_->git_old = std::string(rest.substr(0, mid));
                current_->git_new = std::string(rest.substr(mid + 1));
                return;
            }
        }
        const std::size_t split = rest.find(" b/");
        if (split != std::string_view::npos) {
            current_->git_old = std::string(rest.substr(0, split));
            current_->git_new = std::string(rest.substr(split + 1));
        }
    }

    void git_header(std::string_view line) {
        if (line.starts_with("new file mode")) {
            current_->new_file = true;
        } else if (line.starts_with("deleted file mode")) {
            current_->deleted_file = true;
        } else if (line.starts_with("rename from ")) {
            current_->rename_from = header_name(line.substr(12));
        } else if (line.starts_with("rename to ")) {
            current_->rename_to = header_name(line.substr(10));
        }
        // index, old mode, new mode, similarity index, copy from/to: nothing to do.
    }

    // A line that starts the next section or hunk, so cannot continue a hunk past its counts.
    bool starts_header(std::size_t j) const {
        const std::string_view line = text_.line(j);
        if (line.starts_with("@@") || line.starts_with("diff ") || line.starts_with("Index: ")) return true;
        if (line.starts_with("--- ") && j + 1 < text_.size() && text_.line(j + 1).starts_with("+++ ")) return true;
        return line == "-- ";  // the signature line of git format-patch mail
    }

    // Reads the hunk whose header is line i; returns the index of the first line after it.
    base::Result<std::size_t, PatchError> hunk(std::size_t i) {
        const HunkHeader header = parse_hunk_header(text_.line(i));
        const bool counted = header.old_count && header.new_count;
        std::size_t old_left = counted ? *header.old_count : 0;
        std::size_t new_left = counted ? *header.new_count : 0;

        PatchBlock block;
        block.patch_line = PatchText::number(i);
        bool new_no_newline = false, any_marker = false;
        bool has_context_or_removed = false;
        char last_op = 0;
        const std::size_t n = text_.size();
        std::size_t j = i + 1;
        auto take = [&](char op, std::string_view content, std::size_t line) {
            block.ops += op;
            if (op != '+') {
                block.old_text.append(content);
                block.old_text += '\n';
                if (old_left) --old_left;
                has_context_or_removed = true;
            }
            if (op != '-') {
                block.new_text.append(content);
                block.new_text += '\n';
                block.new_text_as_given.append(content);
                block.new_text_as_given.append(text_.newline(line));
                if (new_left) --new_left;
            }
            last_op = op;
        };
        while (j < n) {
            const std::string_view line = text_.line(j);
            if (!line.empty() && line[0] == '\\') {  // "\ No newline at end of file"
                if (last_op == 0) break;
                any_marker = true;
                if (last_op != '-') new_no_newline = true;
                ++j;
                continue;
            }
            if (counted && (old_left > 0 || new_left > 0)) {
                if (line.empty()) {
                    take(' ', "", j);
                } else if (is_body_line(line)) {
                    take(line[0], line.substr(1), j);
                } else {
                    break;  // the counts were too large
                }
                ++j;
                continue;
            }
            // Past the counts (or without them): go on only with lines that can only be hunk lines.
            if (starts_header(j)) break;
            if (is_body_line(line)) {
                take(line[0], line.substr(1), j);
                ++j;
                continue;
            }
            if (line.empty()) {
                std::size_t k = j;
                while (k < n && text_.line(k).empty()) ++k;
                if (k < n && is_body_line(text_.line(k)) && !starts_header(k)) {
                    for (; j < k; ++j) take(' ', "", j);
                    continue;
                }
            }
            break;
        }
        if (last_op == 0) {
            return malformed_.fail(block.patch_line,
                                   "the hunk has no lines: a hunk header must be followed by its "
                                   "context (' '), removed ('-') and added ('+') lines.");
        }
        if (any_marker) {
            block.final_newline = !new_no_newline;
            block.at_end_of_file = true;
        }
        if (header.old_count && has_context_or_removed) block.stated_old_count = *header.old_count;
        if (header.new_count && has_context_or_removed) block.stated_new_count = *header.new_count;
        if (header.old_start) {
            const std::size_t start = *header.old_start;
            const std::size_t count = header.old_count.value_or(1);
            if (!has_context_or_removed) {
                block.start_line = count == 0 ? start : (start > 0 ? start - 1 : 0);
            } else {
                const std::size_t first = count == 0 ? start + 1 : start;
                if (first > 0) block.start_line = first;
            }
        } else if (!has_context_or_removed) {
            return malformed_.fail(block.patch_line,
                                   "the hunk only adds lines and its header gives no line numbers, so there is no "
                                   "way to tell where they go. Write the header as \"@@ -N,0 +M,K @@\" (the lines "
                                   "go after line N), or add a context line or two around them.");
        }
        block.index = ++block_count_;
        current_->blocks.push_back(std::move(block));
        return j;
    }

    base::Result<Patch, PatchError> build() {
        Patch patch;
        patch.format = PatchFormat::unified;
        std::unordered_map<std::string, std::size_t> by_path;  // path -> index in patch.files
        for (Section& s : sections_) {
            std::string old_name = s.have_names ? s.old_name : s.git_old;
            std::string new_name = s.have_names ? s.new_name : s.git_new;
            const bool strip = s.git || ((old_name.starts_with("a/") || old_name == kDevNull) &&
                                         (new_name.starts_with("b/") || new_name == kDevNull));
            if (strip) {
                old_name = strip_prefix(old_name, 'a');
                new_name = strip_prefix(new_name, 'b');
            }
            if (s.rename_from) old_name = *s.rename_from;
            if (s.rename_to) new_name = *s.rename_to;

            FilePatch file;
            file.patch_line = s.line;
            const bool creates = old_name == kDevNull || s.new_file;
            const bool deletes = new_name == kDevNull || s.deleted_file;
            if (creates && deletes) {
                return malformed_.fail(s.line,
                                       "this section both creates and deletes its file (/dev/null on both sides).");
            }
            if (creates) {
                file.action = FileAction::create;
                file.path = new_name;
                for (const PatchBlock& b : s.blocks) {
                    if (!b.old_text.empty()) {
                        return malformed_.fail(b.patch_line, "the hunk creates " + file.path +
                                                                 " (--- /dev/null), so it can only have '+' lines; it "
                                                                 "has context or '-' lines.");
                    }
                }
            } else if (deletes) {
                file.action = FileAction::remove;
                file.path = old_name;
                for (const PatchBlock& b : s.blocks) {
                    if (!b.new_text.empty()) {
                        return malformed_.fail(b.patch_line, "the hunk deletes " + file.path +
                                                                 " (+++ /dev/null), so it can only have '-' lines; it "
                                                                 "has context or '+' lines.");
                    }
                }
            } else {
                file.action = FileAction::update;
                if (s.rename_from || s.rename_to) {
                    file.path = old_name;
                    if (new_name != old_name) file.move_to = new_name;
                } else {
                    file.path = new_name;
                }
                if (s.blocks.empty() && !file.move_to) continue;  // a mode change or an empty section
            }
            if (file.path.empty() && (s.git || s.have_names)) {
                return malformed_.fail(s.line, "this section names no file. " + std::string(kUnifiedFormat));
            }
            file.blocks = std::move(s.blocks);
            // Sections naming the same file (updates, no move) are one FilePatch.
            const auto [seen, fresh] = by_path.try_emplace(file.path, patch.files.size());
            if (!fresh) {
                FilePatch* same = &patch.files[seen->second];
                if (same->action != FileAction::update || file.action != FileAction::update || same->move_to ||
                    file.move_to) {
                    return malformed_.fail(s.line, (file.path.empty() ? std::string("the file") : file.path) +
                                                       " appears twice in the diff (also at line " +
                                                       std::to_string(same->patch_line) +
                                                       "); give each file one section with all of its hunks.");
                }
                for (PatchBlock& b : file.blocks) same->blocks.push_back(std::move(b));
                continue;
            }
            patch.files.push_back(std::move(file));
        }
        if (patch.files.empty()) {
            return malformed_.fail(
                0, "the diff has no hunks (no line starting with \"@@\"), so there is nothing to apply. " +
                       std::string(kUnifiedFormat));
        }
        for (const FilePatch& f : patch.files) patch.block_count += f.blocks.size();
        return patch;
    }

    const MalformedPatch malformed_{"unified diff"};
    PatchText text_;
    std::vector<Section> sections_;
    Section* current_ = nullptr;
    std::size_t block_count_ = 0;
};

}  // namespace

base::Result<Patch, PatchError> parse_unified_diff(std::string_view patch) {
    UnifiedReader reader(patch);
    return reader.run();
}

}  // namespace text
