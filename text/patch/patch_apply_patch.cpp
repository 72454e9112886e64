// The `*** Begin Patch` reader: envelope, file operations, and the chunks of each Update, in one
// forward pass; every error names the line and shows the expected shape.
#include "text/patch/patch_apply_patch.hpp"

#include <string>
#include <unordered_map>

#include "text/patch/patch_text.hpp"

namespace text {

const char* const kApplyPatchFormat =
    "The patch must look like this:\n"
    "*** Begin Patch\n"
    "*** Update File: PATH\n"
    "@@ a line of the file that comes before the change (optional)\n"
    " a context line, with a space before it\n"
    "-a line to remove\n"
    "+a line to add\n"
    "*** Add File: NEW_PATH\n"
    "+each line of the new file, after a plus\n"
    "*** Delete File: OLD_PATH\n"
    "*** End Patch";

namespace {

bool is_fence(std::string_view line) { return trim_both(line).starts_with("```"); }

// "*** KEY: value" -> value (trimmed); nullopt when the line is not that key.
std::optional<std::string> keyed(std::string_view line, std::string_view key) {
    if (!line.starts_with(key)) return std::nullopt;
    return std::string(trim_both(line.substr(key.size())));
}

class ApplyPatchReader {
public:
    explicit ApplyPatchReader(std::string_view patch) : text_(patch) {}

    base::Result<Patch, PatchError> run() {
        const std::size_t n = text_.size();
        std::size_t i = 0;
        while (i < n && (trim_both(text_.line(i)).empty() || is_fence(text_.line(i)))) ++i;
        if (i >= n || trim_right(text_.line(i)) != "*** Begin Patch") {
            return malformed_.fail(i < n ? PatchText::number(i) : 0,
                                   "the patch must start with the line \"*** Begin Patch\".");
        }
        ++i;
        bool ended = false;
        while (i < n) {
            const std::string_view line = text_.line(i);
            const std::size_t number = PatchText::number(i);
            if (trim_right(line) == "*** End Patch") {
                ended = true;
                break;
            }
            if (auto path = keyed(line, "*** Add File:")) {
                if (path->empty()) return malformed_.fail(number, "\"*** Add File:\" names no file.");
                FilePatch file;
                file.action = FileAction::create;
                file.path = std::move(*path);
                file.patch_line = number;
                PatchBlock block;
                block.patch_line = number;
                ++i;
                while (i < n && !text_.line(i).starts_with("***")) {
                    const std::string_view l = text_.line(i);
                    if (l.empty() || l[0] != '+') {
                        return malformed_.fail(PatchText::number(i),
                                               "every line of a file added with \"*** Add File:\" starts "
                                               "with '+' (the line " +
                                                   quote_patch_line(l) + " does not).");
                    }
                    block.new_text.append(l.substr(1));
                    block.new_text += '\n';
                    block.new_text_as_given.append(l.substr(1));
                    block.new_text_as_given.append(text_.newline(i));
                    ++i;
                }
                block.index = ++block_count_;
                file.blocks.push_back(std::move(block));
                if (auto r = add(std::move(file)); !r.ok()) return base::fail(std::move(r.error()));
                continue;
            }
            if (auto path = keyed(line, "*** Delete File:")) {
                if (path->empty()) return malformed_.fail(number, "\"*** Delete File:\" names no file.");
                FilePatch file;
                file.action = FileAction::remove;
                file.path = std::move(*path);
                file.patch_line = number;
                if (auto r = add(std::move(file)); !r.ok()) return base::fail(std::move(r.error()));
                ++i;
                continue;
            }
            if (auto path = keyed(line, "*** Update File:")) {
                if (path->empty()) return malformed_.fail(number, "\"*** Update File:\" names no file.");
                auto next = update(i, std::move(*path));
                if (!next.ok()) return base::fail(std::move(next.error()));
                i = next.value();
                continue;
            }
            if (trim_both(line).empty()) {
                ++i;
                continue;
            }
            return malformed_.fail(number,
                                   "expected \"*** Add File: PATH\", \"*** Update File: PATH\", \"*** Delete File: "
                                   "PATH\" or \"*** End Patch\", found " +
                                       quote_patch_line(line) + ".");
        }
        if (!ended) {
            return malformed_.fail(
                0,
                "the patch has no \"*** End Patch\" line; it may have been cut short, so nothing was "
                "applied. Send the whole patch, ending with \"*** End Patch\".");
        }
        if (patch_.files.empty()) return malformed_.fail(0, "the patch holds no file operation.");
        patch_.format = PatchFormat::apply_patch;
        patch_.block_count = block_count_;
        return std::move(patch_);
    }

private:
    // The Update File section that starts at line i; returns the index of the line after it.
    base::Result<std::size_t, PatchError> update(std::size_t i, std::string path) {
        const std::size_t n = text_.size();
        FilePatch file;
        file.action = FileAction::update;
        file.path = std::move(path);
        file.patch_line = PatchText::number(i);
        ++i;
        if (i < n) {
            if (auto to = keyed(text_.line(i), "*** Move to:")) {
                if (to->empty()) return malformed_.fail(PatchText::number(i), "\"*** Move to:\" names no file.");
                file.move_to = std::move(*to);
                ++i;
            }
        }
        PatchBlock chunk;
        bool open = false;               // chunk has started (an @@ or a body line)
        bool has_body = false;           // chunk has ' ', '-' or '+' lines
        std::size_t trailing_empty = 0;  // literally empty lines at the chunk's end: separators, dropped
        auto close = [&]() {
            for (; trailing_empty > 0; --trailing_empty) {
                chunk.old_text.pop_back();
                chunk.new_text.pop_back();
                chunk.ops.pop_back();
            }
            if (open && has_body && !(chunk.old_text.empty() && chunk.new_text.empty())) {
                chunk.index = ++block_count_;
                chunk.after_previous = true;
                file.blocks.push_back(std::move(chunk));
            }
            chunk = PatchBlock{};
            open = false;
            has_body = false;
        };
        while (i < n) {
            const std::string_view line = text_.line(i);
            const std::size_t number = PatchText::number(i);
            if (trim_right(line) == "*** End of File") {
                if (!has_body) {
                    return malformed_.fail(number, "\"*** End of File\" must follow the lines of a chunk.");
                }
                trailing_empty = 0;  // before End of File, empty lines are the file's own
                chunk.at_end_of_file = true;
                close();
                ++i;
                continue;
            }
            if (line.starts_with("***")) break;
            if (line.starts_with("@@")) {
                if (has_body) close();
                if (!open) {
                    open = true;
                    chunk.patch_line = number;
                }
                const std::string_view anchor = line.size() > 2 && line[2] == ' ' ? line.substr(3) : line.substr(2);
                if (!trim_both(anchor).empty()) chunk.anchors.emplace_back(anchor);
                ++i;
                continue;
            }
            if (line.empty() && !has_body) {  // a blank line before a chunk's first line separates
                ++i;
                continue;
            }
            if (line.empty() || line[0] == ' ' || line[0] == '-' || line[0] == '+') {
                trailing_empty = line.empty() ? trailing_empty + 1 : 0;
                if (!open) {
                    open = true;
                    chunk.patch_line = number;
                }
                has_body = true;
                const char op = line.empty() ? ' ' : line[0];
                chunk.ops += op;
                const std::string_view content = line.empty() ? line : line.substr(1);
                if (op != '+') {
                    chunk.old_text.append(content);
                    chunk.old_text += '\n';
                }
                if (op != '-') {
                    chunk.new_text.append(content);
                    chunk.new_text += '\n';
                }
                ++i;
                continue;
            }
            return malformed_.fail(number,
                                   "in \"*** Update File: " + file.path +
                                       "\", every line after the "
                                       "\"@@\" starts with ' ' (context), '-' (removed) or '+' (added); found " +
                                       quote_patch_line(line) + ".");
        }
        close();
        if (file.blocks.empty() && !file.move_to) {
            return malformed_.fail(file.patch_line, "\"*** Update File: " + file.path +
                                                        "\" has no changes: give it chunks of ' ', '-' and '+' "
                                                        "lines, or a \"*** Move to:\" line.");
        }
        if (auto r = add(std::move(file)); !r.ok()) return base::fail(std::move(r.error()));
        return i;
    }

    base::Result<bool, PatchError> add(FilePatch file) {
        const auto [seen, fresh] = by_path_.try_emplace(file.path, patch_.files.size());
        if (!fresh) {
            FilePatch& f = patch_.files[seen->second];
            if (f.action == FileAction::update && file.action == FileAction::update && !f.move_to && !file.move_to) {
                for (PatchBlock& b : file.blocks) f.blocks.push_back(std::move(b));
                return true;
            }
            return malformed_.fail(file.patch_line, file.path + " appears twice in the patch (also at line " +
                                                        std::to_string(f.patch_line) +
                                                        "); give each file one operation.");
        }
        patch_.files.push_back(std::move(file));
        return true;
    }

    const MalformedPatch malformed_{"*** Begin Patch envelope", kApplyPatchFormat};
    PatchText text_;
    Patch patch_;
    std::unordered_map<std::string, std::size_t> by_path_;  // path -> index in patch_.files
    std::size_t block_count_ = 0;
};

}  // namespace

base::Result<Patch, PatchError> parse_apply_patch(std::string_view patch) {
    ApplyPatchReader reader(patch);
    return reader.run();
}

}  // namespace text
