// Windows replaces a file in two steps, with a moment where its name is missing (Wine's ReplaceFileW
// leaves a longer one than Windows'): a read that lands in that moment, while a change in the
// file's folder is being committed, waits for the commit and reads the new file. CI's stress test
// under Wine once saw such a read say the file did not exist.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "os/locks.hpp"
#include "os/paths.hpp"
#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

TEST_CASE("read (Windows): a file missing while a change in its folder is committed is read after the commit") {
    Fixture f;
    f.put("other.txt", "x\n");
    auto resolved = f.workspace.resolve(f.path("a.txt"));
    REQUIRE(resolved.ok());
    const std::string folder = os::parent_of(resolved->real);

    // Nobody commits: a missing file is missing.
    CHECK_FALSE(os::folder_being_committed(folder));
    tools::ToolResult missing = f.read("a.txt");
    CHECK(missing.is_error);
    CHECK(missing.reason == base::ErrorReason::not_found);

    // A commit holds the folder's lock, as a transaction does around its rename, and puts the file
    // in place 100 ms later.
    auto commit = std::make_unique<os::FolderLock>();
    auto taken = os::try_lock_folder(folder, *commit);
    REQUIRE(taken.ok());
    REQUIRE(*taken);
    CHECK(os::folder_being_committed(folder));
    std::thread committer([&f, &commit] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        f.put("a.txt", "written\n");
        commit.reset();
    });
    tools::ToolResult read = f.read("a.txt");
    committer.join();
    CHECK_MESSAGE(!read.is_error, read.text);
    CHECK(read.text.find("written") != std::string::npos);
    CHECK_FALSE(os::folder_being_committed(folder));
}
