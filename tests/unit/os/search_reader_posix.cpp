// platform::SearchReader (grep's per-worker reader): whole files through a kept folder descriptor,
// NUL and CR found piece by piece, the same refusals as read_regular_file, no symlink followed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "os/search_reader.hpp"

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
        platform::hold_directory(base.string());
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

    platform::SearchReader reader;
    platform::ReadFailure failure;
    std::string_view bytes;
    REQUIRE(reader.read(big_path, 1 << 30, bytes, failure));
    CHECK(bytes == big);
    CHECK(reader.has_nul());
    CHECK(reader.has_cr());
    REQUIRE(reader.read(small_path, 1 << 30, bytes, failure));
    CHECK(bytes == "one\ntwo\n");
    CHECK_FALSE(reader.has_nul());
    CHECK_FALSE(reader.has_cr());
    REQUIRE(reader.read(other_path, 1 << 30, bytes, failure));
    CHECK(bytes == "crlf\r\n");
    CHECK(reader.has_cr());
    REQUIRE(reader.read(empty_path, 1 << 30, bytes, failure));
    CHECK(bytes.empty());
    reader.release_above(0);
    REQUIRE(reader.read(small_path, 1 << 30, bytes, failure));
    CHECK(bytes == "one\ntwo\n");
}

TEST_CASE("search reader: refuses what read_regular_file refuses, and follows no symlink under a held root") {
    ReaderTree t;
    const std::string file = t.put("a/file.txt", "0123456789");
    platform::SearchReader reader;
    platform::ReadFailure failure;
    std::string_view bytes;

    CHECK_FALSE(reader.read(file, 9, bytes, failure));
    CHECK(failure.why == platform::ReadFailure::Why::too_large);
    CHECK(failure.size == 10);

    REQUIRE(::mkfifo((t.base / "a" / "fifo").c_str(), 0600) == 0);
    failure = {};
    CHECK_FALSE(reader.read((t.base / "a" / "fifo").string(), 1 << 20, bytes, failure));
    CHECK(failure.why == platform::ReadFailure::Why::not_regular);
    CHECK(failure.kind == platform::FileKind::fifo);

    fs::create_symlink(t.base / "a" / "file.txt", t.base / "a" / "link.txt");
    failure = {};
    CHECK_FALSE(reader.read((t.base / "a" / "link.txt").string(), 1 << 20, bytes, failure));
    CHECK(failure.why == platform::ReadFailure::Why::io);

    failure = {};
    CHECK_FALSE(reader.read((t.base / "a" / "missing.txt").string(), 1 << 20, bytes, failure));
    CHECK(failure.why == platform::ReadFailure::Why::not_found);

    REQUIRE(reader.read(file, 10, bytes, failure));
    CHECK(bytes == "0123456789");
}
