// Unit tests of ledger/history: every image comes back byte for byte through undo's walk (latest,
// pop), however the changes chain, and the byte cap counts whole images as before.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ledger/history.hpp"

namespace {

struct Step {
    bool existed;
    std::string before;
    std::string after;
};

// What step `i` is recorded with: none when it deleted the file.
std::optional<ledger::Fingerprint> fingerprint_of(const Step& step, std::size_t i) {
    if (step.after.empty()) return std::nullopt;
    return ledger::Fingerprint{"h" + std::to_string(i)};
}

// Records `steps` for one file, then walks them back checking each image.
void record_and_walk_back(const std::vector<Step>& steps) {
    ledger::History history;
    for (std::size_t i = 0; i < steps.size(); ++i)
        history.record("edit", "/r/f", steps[i].existed, steps[i].before, steps[i].after, fingerprint_of(steps[i], i));
    for (std::size_t i = steps.size(); i-- > 0;) {
        const auto entry = history.latest("/r/f");
        REQUIRE(entry);
        CHECK(entry->tool == "edit");
        CHECK(entry->existed == steps[i].existed);
        CHECK(entry->before == steps[i].before);
        CHECK(entry->after == steps[i].after);
        CHECK(entry->after_fingerprint == fingerprint_of(steps[i], i));
        history.pop("/r/f", entry->seq);
    }
    CHECK_FALSE(history.latest("/r/f"));
}

}  // namespace

TEST_CASE("history: chained edits come back whole, newest first") {
    const std::string a = "one\ntwo\nthree\n", b = "one\n2\nthree\n", c = "one\n2\nthree\nfour\n", d = "zero\n";
    record_and_walk_back({{true, a, b}, {true, b, c}, {true, c, d}, {true, d, a}});
}

TEST_CASE("history: a change that did not start from the previous after-image keeps both") {
    record_and_walk_back({{true, "abc", "abXc"}, {true, "changed elsewhere", "changed"}, {true, "changed", "c"}});
}

TEST_CASE("history: creation, deletion, empty files, identical ends and whole replacement") {
    record_and_walk_back({{false, "", "new\n"},
                          {true, "new\n", "new\nnew\n"},
                          {true, "new\nnew\n", "new\n"},
                          {true, "new\n", ""},
                          {false, "", "x"},
                          {true, "x", "xx"},
                          {true, "xx", "x"},
                          {true, "x", "y"},
                          {true, "y", "aaaa"},
                          {true, "aaaa", "aa"}});
}

TEST_CASE("history: a pop that is not the newest is ignored; other files are apart") {
    ledger::History history;
    history.record("edit", "/r/a", true, "1", "2", ledger::Fingerprint{"h2"});
    history.record("edit", "/r/b", true, "x", "y", ledger::Fingerprint{"hy"});
    history.record("edit", "/r/a", true, "2", "3", ledger::Fingerprint{"h3"});
    const auto first = history.latest("/r/a");
    REQUIRE(first);
    history.pop("/r/a", first->seq - 2);  // not the newest: nothing happens
    CHECK(history.latest("/r/a")->after == "3");
    history.pop("/r/a", first->seq);
    CHECK(history.latest("/r/a")->after == "2");
    CHECK(history.latest("/r/a")->before == "1");
    CHECK(history.latest("/r/b")->before == "x");
}

TEST_CASE("history: the cap counts both images whole; the oldest go first and are counted") {
    // Each change costs before + after + 256 bytes: 100 + 100 + 256 = 456.
    const std::string x(100, 'x'), y(100, 'y');
    ledger::History history(1000);
    history.record("edit", "/r/f", true, x, y, ledger::Fingerprint{"hy"});
    history.record("edit", "/r/f", true, y, x, ledger::Fingerprint{"hx"});
    CHECK(history.evicted("/r/f") == 0);
    history.record("edit", "/r/f", true, x, y, ledger::Fingerprint{"hy2"});  // 3 * 456 > 1000: the oldest goes
    CHECK(history.evicted("/r/f") == 1);
    auto e = history.latest("/r/f");
    CHECK(e->before == x);
    CHECK(e->after == y);
    history.pop("/r/f", e->seq);
    e = history.latest("/r/f");
    CHECK(e->before == y);
    CHECK(e->after == x);
    history.pop("/r/f", e->seq);
    CHECK_FALSE(history.latest("/r/f"));

    // One change over the cap drops the file's whole history.
    history.record("edit", "/r/g", true, "a", "b", ledger::Fingerprint{"hb"});
    history.record("edit", "/r/g", true, "b", std::string(1000, 'c'), ledger::Fingerprint{"hc"});
    CHECK_FALSE(history.latest("/r/g"));
    CHECK(history.evicted("/r/g") == 2);

    // The entry count cap.
    ledger::History few(1u << 20, 2);
    few.record("edit", "/r/h", true, "1", "2", ledger::Fingerprint{"h2"});
    few.record("edit", "/r/h", true, "2", "3", ledger::Fingerprint{"h3"});
    few.record("edit", "/r/h", true, "3", "4", ledger::Fingerprint{"h4"});
    CHECK(few.evicted("/r/h") == 1);
    CHECK(few.latest("/r/h")->before == "3");
}

TEST_CASE("history: changes at every distance from the ends of a long file") {
    std::string base;
    for (int i = 0; base.size() < 1200; ++i) base += "line " + std::to_string(i) + "\n";
    std::vector<Step> steps;
    std::string current = base;
    for (const std::size_t at : {0u, 1u, 15u, 16u, 17u, 255u, 256u, 257u, 600u, 1183u, 1184u, 1199u}) {
        std::string next = current;
        next.insert(std::min<std::size_t>(at, next.size()), "+");
        steps.push_back({true, current, next});
        current = next;
        next = current;
        next.erase(next.size() - 1 - std::min<std::size_t>(at, next.size() - 1), 1);
        steps.push_back({true, current, next});
        current = next;
    }
    record_and_walk_back(steps);
}

TEST_CASE("history: a big file keeps only the replaced bytes; undo's walk rebuilds each image from the file") {
    // Past max_kept_after no after-image is kept: each before-image comes back from the bytes on
    // disk (here: the previous step's after), with CRLF, a BOM, no final newline and NUL/0xFF bytes.
    std::string big =
        "\xEF\xBB\xBF"
        "first\r\n";
    while (big.size() <= ledger::History::max_kept_after) big += std::string("row\r\n\0\xFF", 8);
    big += "last line, no newline";
    std::vector<std::string> images{big};
    std::string next = big;
    next.insert(3, "inserted\r\n");  // after the BOM
    images.push_back(next);
    next.erase(next.size() - 4);  // the tail
    images.push_back(next);
    next[next.size() / 2] = '\0';  // the middle
    images.push_back(next);
    ledger::History history;
    for (std::size_t i = 1; i < images.size(); ++i)
        history.record("insert", "/r/big", true, images[i - 1], images[i], ledger::Fingerprint::of(images[i]));
    for (std::size_t i = images.size() - 1; i > 0; --i) {
        const auto entry = history.latest("/r/big");
        REQUIRE(entry);
        CHECK_FALSE(entry->after_kept);
        CHECK(entry->after.empty());
        CHECK(entry->middle.size() < 64);
        CHECK(entry->after_fingerprint == ledger::Fingerprint::of(images[i]));
        CHECK(entry->before_from(images[i]) == images[i - 1]);
        history.pop("/r/big", entry->seq);
    }
    CHECK_FALSE(history.latest("/r/big"));
}

TEST_CASE("history: the cap counts the bytes kept, so a big file's small edits do not evict") {
    // Whole copies of ten 2 MiB images (40 MiB) would overflow a 4 MiB cap; their deltas do not.
    const std::string a(2u << 20, 'a');
    ledger::History history(4u << 20);
    std::string before = a;
    for (int i = 0; i < 10; ++i) {
        std::string after = before;
        after.insert(after.size() / 2, "edit " + std::to_string(i) + "\n");
        history.record("insert", "/r/f", true, before, after, ledger::Fingerprint::of(after));
        before = after;
    }
    CHECK(history.evicted("/r/f") == 0);
    CHECK(history.depth("/r/f") == 10);
}

TEST_CASE("history: export rebuilds a big file's images from its bytes now, and leaves them out otherwise") {
    const std::string a(ledger::History::max_kept_after + 10, 'a');
    const std::string b = a + "b", c = "c" + b;
    ledger::History history;
    history.record("edit", "/r/f", true, a, b, ledger::Fingerprint::of(b));
    history.record("edit", "/r/f", true, b, c, ledger::Fingerprint::of(c));
    const auto exported = history.export_all([&](const std::string&) { return std::optional<std::string>(c); });
    REQUIRE(exported.size() == 2);
    CHECK(exported[0].entry.before == a);
    CHECK(exported[0].entry.after == b);
    CHECK(exported[1].entry.before == b);
    CHECK(exported[1].entry.after == c);
    // The file changed since: nothing can be rebuilt.
    CHECK(history.export_all([&](const std::string&) { return std::optional<std::string>(a); }).empty());
}
