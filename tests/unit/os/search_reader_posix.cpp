// os::SearchReader (grep's per-worker reader): whole files through a kept folder descriptor,
// NUL and CR found piece by piece, the same refusals as read_regular_file, no symlink followed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "os/search_reader.hpp"
#include "os/confinement.hpp"

namespace fs = std::filesystem;

namespace {

struct ReaderTree {
    fs::path base;
    ReaderTree() {
        std::string pattern = (fs::temp_directory_path() / "mcp-edit-search-reader-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        base = fs::canonical(pattern);
        fs::create_directories(base / "a");
        fs::create_directories(base / "b");
        os::hold_directory(base.string());
    }
    ~ReaderTree() {
        std::error_code ec;
        fs::remove_all(base, ec);
    }
    std::string put(const std::string& relative, const std::string& bytes) const {
        std::ofstream(base / relative, std::ios::binary) << bytes;
        return (base / relative).string();
    }
};

}  // namespace

TEST_CASE("search reader: whole files from one folder and the next, NUL and CR found in any piece") {
    ReaderTree t;
    // Over 256 KiB: the CR sits in the second piece, the NUL in the last.
    std::string big(700 * 1024, 'x');
    big[300 * 1024] = '\r';
    big[690 * 1024] = '\0';
    const std::string big_path = t.put("a/big.txt", big);
    const std::string small_path = t.put("a/small.txt", "one\ntwo\n");
    const std::string other_path = t.put("b/other.txt", "crlf\r\n");
    const std::string empty_path = t.put("b/empty.txt", "");

    os::SearchReader reader;
    auto bytes = reader.read(big_path, 1 << 30);
    REQUIRE(bytes.ok());
    CHECK(*bytes == big);
    CHECK(reader.has_nul());
    CHECK(reader.has_cr());
    bytes = reader.read(small_path, 1 << 30);
    REQUIRE(bytes.ok());
    CHECK(*bytes == "one\ntwo\n");
    CHECK_FALSE(reader.has_nul());
    CHECK_FALSE(reader.has_cr());
    bytes = reader.read(other_path, 1 << 30);
    REQUIRE(bytes.ok());
    CHECK(*bytes == "crlf\r\n");
    CHECK(reader.has_cr());
    bytes = reader.read(empty_path, 1 << 30);
    REQUIRE(bytes.ok());
    CHECK(bytes->empty());
    reader.release_above(0);
    bytes = reader.read(small_path, 1 << 30);
    REQUIRE(bytes.ok());
    CHECK(*bytes == "one\ntwo\n");
}

TEST_CASE("search reader: refuses what read_regular_file refuses, and follows no symlink under a held root") {
    ReaderTree t;
    const std::string file = t.put("a/file.txt", "0123456789");
    os::SearchReader reader;

    auto read = reader.read(file, 9);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().why == os::ReadFailure::Why::too_large);
    CHECK(read.error().size == 10);

    REQUIRE(::mkfifo((t.base / "a" / "fifo").c_str(), 0600) == 0);
    read = reader.read((t.base / "a" / "fifo").string(), 1 << 20);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().why == os::ReadFailure::Why::not_regular);
    CHECK(read.error().kind == os::FileKind::fifo);

    fs::create_symlink(t.base / "a" / "file.txt", t.base / "a" / "link.txt");
    read = reader.read((t.base / "a" / "link.txt").string(), 1 << 20);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().why == os::ReadFailure::Why::io);

    read = reader.read((t.base / "a" / "missing.txt").string(), 1 << 20);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().why == os::ReadFailure::Why::not_found);

    read = reader.read(file, 10);
    REQUIRE(read.ok());
    CHECK(*read == "0123456789");
}
