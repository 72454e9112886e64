// File URIs, language ids and LSP diagnostics (see lsp_text.hpp).
#include "checks/lsp_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace checks::lsp {

namespace {

bool unreserved(unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/'; }

int hex_value(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

std::string severity_name(const nlohmann::json& severity) {
    switch (severity.is_number_integer() ? severity.get<int>() : 1) {
        case 2: return "warning";
        case 3: return "info";
        case 4: return "note";  // LSP's hint
        default: return "error";
    }
}

std::size_t position(const nlohmann::json& value) {
    return value.is_number_unsigned() ? value.get<std::size_t>() + 1 : 0;
}

}  // namespace

std::string file_uri(const std::string& real) {
    std::string out = real.starts_with('/') ? "file://" : "file:///";
    const std::size_t prefix = out.size();
    for (const unsigned char c : real) {
        const bool drive_colon = c == ':' && out.size() == prefix + 1;  // C: stays C:
        if (unreserved(c) || drive_colon) {
            out += static_cast<char>(c);
        } else {
            static constexpr char hex[] = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string normalized_uri(const std::string& uri) {
    std::string out;
    out.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        const int high = uri[i] == '%' && i + 2 < uri.size() ? hex_value(uri[i + 1]) : -1;
        const int low = high >= 0 ? hex_value(uri[i + 2]) : -1;
        if (low >= 0) {
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += uri[i];
        }
    }
#ifdef _WIN32
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
#endif
    return out;
}

std::string language_id(const std::string& real) {
    static const std::map<std::string, std::string> by_extension = {{"c", "c"},
                                                                    {"h", "c"},
                                                                    {"cc", "cpp"},
                                                                    {"cpp", "cpp"},
                                                                    {"cxx", "cpp"},
                                                                    {"hh", "cpp"},
                                                                    {"hpp", "cpp"},
                                                                    {"hxx", "cpp"},
                                                                    {"m", "objective-c"},
                                                                    {"mm", "objective-cpp"},
                                                                    {"py", "python"},
                                                                    {"pyi", "python"},
                                                                    {"ts", "typescript"},
                                                                    {"tsx", "typescriptreact"},
                                                                    {"js", "javascript"},
                                                                    {"mjs", "javascript"},
                                                                    {"cjs", "javascript"},
                                                                    {"jsx", "javascriptreact"},
                                                                    {"rs", "rust"},
                                                                    {"go", "go"},
                                                                    {"java", "java"},
                                                                    {"kt", "kotlin"},
                                                                    {"cs", "csharp"},
                                                                    {"rb", "ruby"},
                                                                    {"php", "php"},
                                                                    {"lua", "lua"},
                                                                    {"sh", "shellscript"},
                                                                    {"json", "json"},
                                                                    {"yaml", "yaml"},
                                                                    {"yml", "yaml"},
                                                                    {"toml", "toml"},
                                                                    {"md", "markdown"},
                                                                    {"html", "html"},
                                                                    {"css", "css"},
                                                                    {"zig", "zig"},
                                                                    {"swift", "swift"},
                                                                    {"hs", "haskell"},
                                                                    {"ml", "ocaml"}};
    const auto slash = real.find_last_of('/');
    const auto dot = real.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "plaintext";
    std::string extension = real.substr(dot + 1);
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto it = by_extension.find(extension);
    return it == by_extension.end() ? "plaintext" : it->second;
}

std::vector<Diagnostic> read_diagnostics(const nlohmann::json& diagnostics, const std::string& real) {
    std::vector<Diagnostic> out;
    if (!diagnostics.is_array()) return out;
    for (const auto& item : diagnostics) {
        if (out.size() >= max_diagnostics) break;
        const auto& message = field(item, "message");
        if (!message.is_string()) continue;
        Diagnostic d;
        d.file = real;
        const auto& start = field(field(item, "range"), "start");
        d.line = position(field(start, "line"));
        d.column = d.line ? position(field(start, "character")) : 0;
        d.severity = severity_name(field(item, "severity"));
        d.message = message.get<std::string>();
        if (const auto& code = field(item, "code"); code.is_string() || code.is_number())
            d.message += " [" + (code.is_string() ? code.get<std::string>() : code.dump()) + "]";
        out.push_back(std::move(d));
    }
    return out;
}

const nlohmann::json& field(const nlohmann::json& object, const char* key) {
    static const nlohmann::json none;
    if (!object.is_object()) return none;
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}

}  // namespace checks::lsp
