// Call shapes other agents' tools use, mapped onto ours (see call_shapes.hpp): so that a model
// trained on Claude's text editor, pi, Kimi CLI or Roo Code gets its change made on the first call,
// and one that sends another agent's safety argument (`preview`, `overwrite: false`) gets it honoured.
#include "tools/pipeline/call_shapes.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "protocol/jsonrpc.hpp"
#include "tools/pipeline/call_shape_messages.hpp"

namespace tools {

using Json = nlohmann::json;

namespace {

void rename(Json& args, std::string_view from, std::string_view to, CallShape& shape) {
    const auto it = args.find(std::string(from));
    if (it == args.end() || args.contains(std::string(to))) return;
    Json value = std::move(*it);
    args.erase(std::string(from));
    args[std::string(to)] = std::move(value);
    shape.notes.push_back("Read `" + std::string(from) + "` as `" + std::string(to) + "`.");
}

// The names of the single change's old and new text, in every spelling we accept at the top level.
constexpr std::array<std::string_view, 4> old_names = {"old_string", "oldText", "old_str", "old"};
constexpr std::array<std::string_view, 4> new_names = {"new_string", "newText", "new_str", "new"};

// Anthropic's text editor: command -> our tool.
struct EditorCommand {
    std::string_view command;
    std::string_view tool;
};
constexpr std::array<EditorCommand, 5> editor_commands = {{
    {"str_replace", "edit"},
    {"create", "write"},
    {"insert", "insert"},
    {"view", "read"},
    {"undo_edit", "undo"},
}};

// The call cannot be mapped: it fails with `message`, for the model.
base::Unexpected<base::Failure> refuse(std::string message) {
    return base::fail(base::Failure{std::move(message), base::ErrorReason::invalid_arguments});
}

// view_range [first, last] (last -1: to the end) -> offset and limit.
base::Result<void> map_view_range(Json& args, CallShape& shape) {
    const auto it = args.find("view_range");
    if (it == args.end()) return {};
    const Json range = std::move(*it);
    args.erase("view_range");
    const bool pair =
        range.is_array() && range.size() == 2 && range[0].is_number_integer() && range[1].is_number_integer();
    const long long first = pair ? range[0].get<long long>() : 0;
    const long long last = pair ? range[1].get<long long>() : 0;
    if (!pair || first < 1 || (last != -1 && last < first))
        return refuse(view_range_message(range.dump(-1, ' ', false, Json::error_handler_t::replace)));
    args["offset"] = first;
    std::string note = "Read `view_range` " + range.dump() + " as `offset` " + std::to_string(first);
    if (last != -1) {
        args["limit"] = last - first + 1;
        note += ", `limit` " + std::to_string(last - first + 1);
    }
    shape.notes.push_back(note + ".");
    return {};
}

base::Result<void> map_editor_command(Json& args, CallShape& shape) {
    const auto it = args.find("command");
    if (it == args.end() || !it->is_string()) return {};
    const std::string command = it->get<std::string>();
    const EditorCommand* found = nullptr;
    for (const auto& c : editor_commands)
        if (c.command == command) found = &c;
    if (!found)
        return refuse(unknown_editor_command_message(
            Json(base::cut_utf8(command, 40)).dump(-1, ' ', false, Json::error_handler_t::replace)));
    args.erase("command");
    shape.tool = std::string(found->tool);
    shape.notes.push_back(editor_command_note(command, shape.tool));
    if (command == "str_replace") {
        bool has_new = false;
        for (const auto name : new_names) has_new = has_new || args.contains(std::string(name));
        if (!has_new) {
            args["new_string"] = "";
            shape.notes.push_back(empty_new_str_note());
        }
    } else if (command == "view") {
        return map_view_range(args, shape);
    }
    return {};
}

// The top-level single-change names the caller used, as "`oldText`/`newText`".
std::string top_level_pair(const Json& args) {
    std::string out;
    for (const auto& names : {old_names, new_names})
        for (const auto name : names)
            if (args.contains(std::string(name))) out += (out.empty() ? "`" : "/`") + std::string(name) + "`";
    return out;
}

// Kimi CLI: `edit` holds one {old, new, replace_all} or a list of them.
void map_kimi_edit(Json& args, CallShape& shape) {
    const auto it = args.find("edit");
    if (it == args.end() || args.contains("edits")) return;
    if (it->is_array()) {
        Json list = std::move(*it);
        args.erase("edit");
        args["edits"] = std::move(list);
        shape.notes.push_back("Read the list in `edit` as `edits`.");
        return;
    }
    if (!it->is_object()) return;
    Json one = std::move(*it);
    args.erase("edit");
    if (shape.tool == "multiedit") {
        args["edits"] = Json::array({std::move(one)});
        shape.notes.push_back("Read `edit` as the one entry of `edits`.");
        return;
    }
    for (auto& [key, value] : one.items())
        if (!args.contains(key)) args[key] = std::move(value);
    shape.notes.push_back("Read the fields of `edit` as edit's own arguments.");
}

base::Result<void> map_edit_list(Json& args, CallShape& shape) {
    const auto edits = args.find("edits");
    if (edits == args.end()) return {};
    const std::string pair = top_level_pair(args);
    if (!pair.empty()) return refuse(pair_and_edits_message(shape.tool, pair));
    if (shape.tool == "edit" && edits->is_array()) {
        shape.tool = "multiedit";
        // pi's edit tool: `edits` of {oldText, newText}, every one located on the original file.
        const bool pi_shape = std::any_of(edits->begin(), edits->end(),
                                          [](const Json& e) { return e.is_object() && e.contains("oldText"); });
        if (pi_shape && !args.contains("against")) {
            args["against"] = "original";
            shape.notes.push_back(pi_edits_note());
        } else {
            shape.notes.push_back(edits_as_multiedit_note());
        }
    }
    return {};
}

void map_insert(Json& args, CallShape& shape) {
    rename(args, "insert_line", "line", shape);
    for (const auto name : {"new_str", "new_string", "newText"}) rename(args, name, "text", shape);
}

base::Result<void> map_roo_xml(Json& args, CallShape& shape) {
    std::string_view source_name;
    if (const auto a = args.find("args");
        a != args.end() && a->is_string() && starts_as_roo_xml(a->get_ref<const std::string&>()))
        source_name = "args";
    else if (const auto d = args.find("diff");
             d != args.end() && d->is_string() && starts_as_roo_xml(d->get_ref<const std::string&>()))
        source_name = "diff";
    else
        return {};
    const std::string key(source_name);
    if (key == "args" && args.contains("diff")) return refuse(roo_args_and_diff_message());
    auto xml = parse_roo_xml(args[key].get_ref<const std::string&>());
    if (!xml) return refuse(roo_xml_unreadable_message(key, xml.error()));
    std::vector<RooFileDiff>& files = xml.value();
    if (files.size() > 1) {
        // Several files: the XML itself goes on as `diff`, and apply_diff reads its files as one
        // patch (one transaction, one approval), as Roo applies them.
        if (args.contains("file_path")) return refuse(roo_file_path_and_files_message(files.size()));
        if (key == "args") {
            Json xml_text = std::move(args["args"]);
            args.erase("args");
            args["diff"] = std::move(xml_text);
        }
        shape.notes.push_back(roo_files_note(key, files.size()));
        return {};
    }
    RooFileDiff& file = files.front();
    if (const auto fp = args.find("file_path"); fp != args.end() && fp->is_string() && *fp != file.path)
        return refuse(roo_file_path_and_path_message(fp->dump(), Json(file.path).dump()));
    args.erase("args");
    args["file_path"] = std::move(file.path);
    args["diff"] = std::move(file.diff);
    shape.notes.push_back(roo_one_file_note(key));
    return {};
}

// A safety argument under another agent's name (`from`), honoured as ours (`to`; `negated`: the
// opposite value, as `overwrite: false` is `create_only: true`). Both given and disagreeing: refused.
base::Result<void> map_safety_name(Json& args, std::string_view from, std::string_view to, bool negated,
                                   CallShape& shape) {
    const auto it = args.find(std::string(from));
    if (it == args.end()) return {};
    if (!it->is_boolean())
        return refuse(safety_name_not_boolean_message(shape.tool, from, protocol::excerpt(*it), to, negated));
    const bool value = it->get<bool>() != negated;
    if (const auto ours = args.find(std::string(to)); ours != args.end()) {
        if (ours->is_boolean() && ours->get<bool>() != value)
            return refuse(safety_names_contradict_message(shape.tool, from, it->dump(), to, ours->dump(), negated));
    } else {
        args[std::string(to)] = value;
    }
    shape.notes.push_back(safety_name_note(from, it->dump(), to, value));
    args.erase(std::string(from));
    return {};
}

}  // namespace

base::Result<void> map_safety_names(Json& args, CallShape& shape) {
    if (!args.is_object()) return {};
    if (auto mapped = map_safety_name(args, "preview", "dry_run", false, shape); !mapped) return mapped;
    if (shape.tool != "write") return {};
    for (const auto name : {"no_clobber", "if_not_exists"})
        if (auto mapped = map_safety_name(args, name, "create_only", false, shape); !mapped) return mapped;
    return map_safety_name(args, "overwrite", "create_only", true, shape);
}

namespace {

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

// A bounded reader of the few elements the XML form has.
class RooReader {
public:
    explicit RooReader(std::string_view text) : text_(text) {}

    RooXml read() {
        std::vector<RooFileDiff> files;
        std::size_t end = text_.size();
        skip_space();
        if (text_.substr(pos_).starts_with("<args>")) {
            pos_ += 6;
            const auto close = text_.rfind("</args>");
            if (close == std::string_view::npos || close < pos_)
                return base::fail("`<args>` is not closed by `</args>`");
            end = close;
        }
        for (;;) {
            skip_space();
            if (pos_ >= end) break;
            if (!text_.substr(pos_).starts_with("<file>"))
                return base::fail("expected `<file>` at byte " + std::to_string(pos_) + ", found " + shown(pos_));
            if (files.size() == max_files) return base::fail("more than " + std::to_string(max_files) + " files");
            pos_ += 6;
            RooFileDiff file;
            if (!read_file(file)) return base::fail(error_);
            files.push_back(std::move(file));
        }
        if (files.empty()) return base::fail("it holds no `<file>`");
        return files;
    }

private:
    static constexpr std::size_t max_files = 64;
    static constexpr std::size_t max_diffs = 1000;

    std::string shown(std::size_t at) const {
        std::string_view s = text_.substr(at, 24);
        return at >= text_.size() ? "the end"
                                  : Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    }

    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' || text_[pos_] == '\n'))
            ++pos_;
    }

    bool expect(std::string_view tag) {
        skip_space();
        if (text_.substr(pos_).starts_with(tag)) {
            pos_ += tag.size();
            return true;
        }
        error_ = "expected `" + std::string(tag) + "` at byte " + std::to_string(pos_) + ", found " + shown(pos_);
        return false;
    }

    // The text up to `</name>` (a CDATA section first is taken whole), unwrapped.
    bool read_text(std::string_view name, std::string& out) {
        const std::string close = "</" + std::string(name) + ">";
        std::size_t probe = pos_;
        while (probe < text_.size() &&
               (text_[probe] == ' ' || text_[probe] == '\t' || text_[probe] == '\r' || text_[probe] == '\n'))
            ++probe;
        if (text_.substr(probe).starts_with("<![CDATA[")) {
            const std::size_t begin = probe + 9;
            const auto end = text_.find("]]>", begin);
            if (end == std::string_view::npos) {
                error_ = "a CDATA section in `<" + std::string(name) + ">` is not closed by `]]>`";
                return false;
            }
            out = std::string(text_.substr(begin, end - begin));
            pos_ = end + 3;
            return expect(close);
        }
        const auto end = text_.find(close, pos_);
        if (end == std::string_view::npos) {
            error_ =
                "`<" + std::string(name) + ">` at byte " + std::to_string(pos_) + " is not closed by `" + close + "`";
            return false;
        }
        out = std::string(text_.substr(pos_, end - pos_));
        pos_ = end + close.size();
        return true;
    }

    bool read_file(RooFileDiff& file) {
        if (!expect("<path>") || !read_text("path", file.path)) return false;
        file.path = trim(file.path);
        if (file.path.empty()) {
            error_ = "a `<path>` is empty";
            return false;
        }
        std::size_t diffs = 0;
        for (;;) {
            skip_space();
            if (text_.substr(pos_).starts_with("</file>")) {
                pos_ += 7;
                break;
            }
            if (!expect("<diff>")) return false;
            if (++diffs > max_diffs) {
                error_ = "more than " + std::to_string(max_diffs) + " diffs for " + file.path;
                return false;
            }
            std::string content;
            skip_space();
            if (text_.substr(pos_).starts_with("<content>")) {
                pos_ += 9;
                if (!read_text("content", content)) return false;
                std::string start_line;
                skip_space();
                if (text_.substr(pos_).starts_with("<start_line>")) {
                    pos_ += 12;
                    if (!read_text("start_line", start_line)) return false;
                }
                if (!expect("</diff>")) return false;
                add_block(file, content, trim(start_line));
            } else {
                if (!read_text("diff", content)) return false;
                add_block(file, content, "");
            }
        }
        if (diffs == 0) {
            error_ = "the `<file>` of " + file.path + " holds no `<diff>`";
            return false;
        }
        return true;
    }

    // Appends a diff's SEARCH/REPLACE text; a start_line goes into its first block that has none.
    static void add_block(RooFileDiff& file, std::string content, const std::string& start_line) {
        if (!content.empty() && content.front() == '\n') content.erase(0, 1);
        if (!start_line.empty() && start_line.find_first_not_of("0123456789") == std::string::npos &&
            content.find(":start_line:") == std::string::npos) {
            const auto marker = content.find("<<<<<<< SEARCH");
            if (marker != std::string::npos) {
                const auto line_end = content.find('\n', marker);
                if (line_end != std::string::npos) content.insert(line_end + 1, ":start_line:" + start_line + "\n");
            }
        }
        if (!file.diff.empty() && file.diff.back() != '\n') file.diff += '\n';
        file.diff += content;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::string error_;
};

}  // namespace

bool starts_as_roo_xml(std::string_view text) {
    const auto b = text.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return false;
    text.remove_prefix(b);
    return text.starts_with("<args>") || text.starts_with("<file>");
}

bool mentions_roo_xml(std::string_view text) {
    return text.find("<path>") != std::string_view::npos &&
           (text.find("<args>") != std::string_view::npos || text.find("<file>") != std::string_view::npos ||
            text.find("<diff>") != std::string_view::npos);
}

RooXml parse_roo_xml(std::string_view text) { return RooReader(text).read(); }

base::Result<CallShape> map_call_shape(std::string_view tool, Json& args) {
    CallShape shape;
    shape.tool = std::string(tool);
    if (!args.is_object()) return shape;
    if (auto mapped = map_editor_command(args, shape); !mapped) return base::fail(std::move(mapped).error());
    base::Result<void> mapped;
    if (shape.tool == "edit" || shape.tool == "multiedit") {
        map_kimi_edit(args, shape);
        mapped = map_edit_list(args, shape);
    } else if (shape.tool == "insert") {
        map_insert(args, shape);
    } else if (shape.tool == "apply_diff") {
        mapped = map_roo_xml(args, shape);
    }
    if (!mapped) return base::fail(std::move(mapped).error());
    // `~/`: the workspace expands it to the user's home, then checks the roots as usual.
    for (const auto name : {"file_path", "path", "filePath"})
        if (const auto p = args.find(name);
            p != args.end() && p->is_string() && p->get_ref<const std::string&>().starts_with("~/"))
            shape.notes.push_back("Read `~/` in `" + base::cut_utf8(p->get<std::string>(), 64) +
                                  "` as the user's home directory.");
    return shape;
}

}  // namespace tools
