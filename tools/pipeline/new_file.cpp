// shape_new_file: the model's text for a new file, written as .editorconfig and .gitattributes say.
#include "tools/pipeline/new_file.hpp"

#include <string_view>

#include "os/editorconfig.hpp"
#include "os/git_attributes.hpp"
#include "text/bytes/encoding_labels.hpp"
#include "text/bytes/file_facts.hpp"
#include "tools/pipeline/file_encoding.hpp"

namespace tools {

namespace {

std::string_view newline_of(std::string_view eol) {
    return eol == "crlf" ? "\r\n" : eol == "cr" ? "\r" : eol == "lf" ? "\n" : "";
}

std::string_view bom_of(std::string_view charset) {
    if (charset == "utf-8-bom") return "\xEF\xBB\xBF";
    if (charset == "utf-16le") return "\xFF\xFE";
    if (charset == "utf-16be") return "\xFE\xFF";
    return "";
}

}  // namespace

base::Result<NewFile> shape_new_file(const os::ResolvedPath& path, std::string text) {
    NewFile out;
    const os::EditorConfig config = os::editorconfig_for(path.real);
    std::string eol = config.end_of_line;
    const bool eol_from_git = eol.empty();
    if (eol_from_git) eol = os::git_eol_for(path.real);
    const std::string_view newline = newline_of(eol);
    const bool trim = config.trim_trailing_whitespace.value_or(false);

    // Line by line: trailing whitespace trimmed, line endings made the project's.
    bool trimmed = false, converted = false;
    out.text.reserve(text.size() + text.size() / 16);
    const std::string_view all = text;
    std::size_t at = 0;
    while (at < all.size()) {
        const std::size_t end = all.find_first_of("\r\n", at);
        std::string_view line = all.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        std::string_view ending;
        if (end != std::string_view::npos)
            ending = all.substr(end, all[end] == '\r' && end + 1 < all.size() && all[end + 1] == '\n' ? 2 : 1);
        if (trim) {
            const std::size_t keep = line.find_last_not_of(" \t");
            const std::size_t kept = keep == std::string_view::npos ? 0 : keep + 1;
            if (kept != line.size()) trimmed = true;
            line = line.substr(0, kept);
        }
        out.text += line;
        if (!ending.empty()) {
            if (!newline.empty() && ending != newline) converted = true;
            out.text += newline.empty() ? ending : newline;
        }
        at = end == std::string_view::npos ? all.size() : end + ending.size();
    }

    // The final newline, when the project says.
    const bool ends_with_newline = !out.text.empty() && (out.text.back() == '\n' || out.text.back() == '\r');
    bool added = false, removed = false;
    if (config.insert_final_newline == true && !out.text.empty() && !ends_with_newline) {
        out.text += newline.empty() ? text::dominant_newline(text::analyze(out.text)) : newline;
        added = true;
    } else if (config.insert_final_newline == false && ends_with_newline) {
        out.text.resize(out.text.size() - (out.text.ends_with("\r\n") ? 2 : 1));
        removed = true;
    }

    // The charset: UTF-8 unless the project says otherwise (a BOM for utf-8-bom and UTF-16).
    std::string said_charset;
    const auto charset = text::editorconfig_charset(config.charset);
    if (!config.charset.empty() && config.charset != "utf-8" && charset) {
        FileEncoding encoding;
        encoding.name = std::string(charset->name);
        encoding.how = encoding.name + " (.editorconfig: charset = " + config.charset + ")";
        encoding.bom = std::string(bom_of(config.charset));
        auto bytes = encoding.bytes_of(out.text, path.display);
        if (!bytes) return base::fail(std::move(bytes).error());
        out.bytes = std::move(*bytes);
        said_charset = config.charset;
    } else {
        out.bytes = out.text;
    }

    // What was made of the model's text, in one note.
    std::vector<std::string> editorconfig_parts, git_parts;
    if (converted) (eol_from_git ? git_parts : editorconfig_parts).push_back(eol + " line endings");
    if (trimmed) editorconfig_parts.push_back("trailing whitespace trimmed");
    if (added) editorconfig_parts.push_back("a final newline added");
    if (removed) editorconfig_parts.push_back("the final newline removed (insert_final_newline = false)");
    if (!said_charset.empty()) editorconfig_parts.push_back("written in " + said_charset);
    auto join = [](const std::vector<std::string>& parts) {
        std::string joined;
        for (const auto& part : parts) joined += (joined.empty() ? "" : ", ") + part;
        return joined;
    };
    if (!editorconfig_parts.empty())
        out.notes.push_back("created " + path.display + " as its .editorconfig says: " + join(editorconfig_parts));
    if (!git_parts.empty())
        out.notes.push_back("created " + path.display + " with " + join(git_parts) + ", as .gitattributes says (eol)");
    return out;
}

}  // namespace tools
