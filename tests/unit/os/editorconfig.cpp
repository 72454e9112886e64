// Unit tests of os/editorconfig, on Linux and (under Wine) Windows, where libeditorconfig is the one
// compiled from Debian's source (cmake/EditorConfigSource.cmake): a .editorconfig's sections for a
// file in a subfolder, a folder whose name is not ASCII, a FIFO in the place of a .editorconfig
// (POSIX) left alone without blocking, and a tree with no .editorconfig.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "os/editorconfig.hpp"
#include "os/system_paths.hpp"

namespace fs = std::filesystem;

namespace {

fs::path utf8_path(const std::string& text) { return fs::path(std::u8string(text.begin(), text.end())); }

// A fresh folder under the temp folder; `root` is its real path as the os layer spells it
// (C:/... on Windows).
struct EditorConfigTree {
    fs::path base;
    std::string root;
    EditorConfigTree() {
        static int counter = 0;
        base = fs::temp_directory_path() / ("mcp-edit-editorconfig-" + std::to_string(counter++) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(base / "sub");
        root = *os::real_path(base.generic_string());
    }
    ~EditorConfigTree() {
        std::error_code ignored;
        fs::remove_all(base, ignored);
    }
    void put(const std::string& relative, const std::string& text) const {
        const fs::path path = base / utf8_path(relative);
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
    }
};

const char* const latin1_crlf_config =
    "root = true\n"
    "\n"
    "[*]\n"
    "charset = latin1\n"
    "end_of_line = crlf\n"
    "\n"
    "[*.py]\n"
    "insert_final_newline = true\n"
    "trim_trailing_whitespace = false\n";

}  // namespace

TEST_CASE("editorconfig: the sections that match a file in a subfolder, later ones added") {
    EditorConfigTree t;
    t.put(".editorconfig", latin1_crlf_config);

    const os::EditorConfig py = os::editorconfig_for(t.root + "/sub/script.py");
    CHECK(py.charset == "latin1");
    CHECK(py.end_of_line == "crlf");
    CHECK(py.insert_final_newline == true);
    CHECK(py.trim_trailing_whitespace == false);
    CHECK_FALSE(py.empty());

    const os::EditorConfig txt = os::editorconfig_for(t.root + "/sub/notes.txt");
    CHECK(txt.charset == "latin1");
    CHECK(txt.end_of_line == "crlf");
    CHECK_FALSE(txt.insert_final_newline.has_value());
    CHECK_FALSE(txt.trim_trailing_whitespace.has_value());
}

TEST_CASE("editorconfig: a folder whose name is not ASCII") {
    // On Windows the library opens files in the ANSI code page (os/editorconfig_windows.cpp); "é"
    // is in the Western ones, which Wine and most systems use.
    EditorConfigTree t;
    t.put("caf\xC3\xA9/.editorconfig", latin1_crlf_config);
    const os::EditorConfig py = os::editorconfig_for(t.root + "/caf\xC3\xA9/sub/script.py");
    CHECK(py.charset == "latin1");
    CHECK(py.end_of_line == "crlf");
    CHECK(py.insert_final_newline == true);
}

TEST_CASE("editorconfig: no .editorconfig on the way up, or a relative path, gives nothing") {
    EditorConfigTree t;
    CHECK(os::editorconfig_for(t.root + "/sub/script.py").empty());
    CHECK(os::editorconfig_for(t.root + "/new.txt").empty());
    t.put(".editorconfig", latin1_crlf_config);
    CHECK(os::editorconfig_for("sub/script.py").empty());
}

#ifndef _WIN32
TEST_CASE("editorconfig: a FIFO named .editorconfig is not opened (it would block)") {
    EditorConfigTree t;
    t.put(".editorconfig", latin1_crlf_config);
    REQUIRE(::mkfifo((t.base / "sub" / ".editorconfig").c_str(), 0600) == 0);
    // The FIFO is below the regular root file: nothing is taken from either, and the call returns.
    CHECK(os::editorconfig_for(t.root + "/sub/script.py").empty());
    // A file beside the FIFO's folder still gets the root's properties.
    CHECK(os::editorconfig_for(t.root + "/script.py").charset == "latin1");
}
#endif
