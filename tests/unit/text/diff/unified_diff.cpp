// Unit tests of text::unified_diff: golden hunks for the edge cases of the format (empty sides, final
// newlines, CRLF, mixed), the cap, and the diff applied back. The edit script itself:
// line_edit_script.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "text/diff/line_edit_script.hpp"
#include "text/diff/unified_diff.hpp"
#include "text/diff/unified_headers.hpp"

namespace {

text::UnifiedDiff diff(std::string_view a, std::string_view b, text::DiffOptions o = {}) {
    if (o.old_path.empty()) o.old_path = "f.txt";
    return text::unified_diff(a, b, o);
}

std::string numbered(int from, int to) {
    std::string s;
    for (int i = from; i <= to; ++i) s += std::to_string(i) + "\n";
    return s;
}

}  // namespace

TEST_CASE("unified diff: one line changed, three lines of context") {
    const auto d = diff(numbered(1, 9), "1\n2\n3\n4\nfive\n6\n7\n8\n9\n");
    CHECK(d.text ==
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
    CHECK(d.additions == 1);
    CHECK(d.removals == 1);
    CHECK(d.first_changed_line == 5);
    CHECK(d.hunks == 1);
    CHECK_FALSE(d.truncated);
}

TEST_CASE("unified diff: nothing changed") {
    const auto d = diff("a\n", "a\n");
    CHECK(d.text.empty());
    CHECK(d.first_changed_line == 0);
    CHECK(d.additions + d.removals == 0);
}

TEST_CASE("unified diff: a side with a NUL byte is git's Binary files line, no raw bytes, no lines counted") {
    const std::string bin("a\0b\n\xff\n", 6);
    text::DiffOptions gone;
    gone.new_missing = true;
    auto d = diff(bin, "", gone);
    CHECK(d.text == "Binary files a/f.txt and /dev/null differ\n");
    CHECK(d.removals == 0);
    CHECK(d.hunks == 0);
    text::DiffOptions made;
    made.old_missing = true;
    made.new_path = "g.bin";
    CHECK(diff("", bin, made).text == "Binary files /dev/null and b/g.bin differ\n");
    CHECK(diff("text\n", bin).text == "Binary files a/f.txt and b/f.txt differ\n");
    CHECK(diff(bin, bin).text.empty());
}

TEST_CASE("unified diff: creation, from /dev/null, -0,0") {
    const text::DiffOptions o{.old_path = "new.txt", .old_missing = true};
    const auto d = text::unified_diff("", "a\nb\n", o);
    CHECK(d.text == "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    CHECK(d.additions == 2);
    CHECK(d.first_changed_line == 1);

    const auto empty = text::unified_diff("", "", o);
    CHECK(empty.text == "--- /dev/null\n+++ b/new.txt\n");

    const auto no_newline = text::unified_diff("", "x", o);
    CHECK(no_newline.text == "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n");
}

TEST_CASE("unified diff: an empty file gets content (not a creation)") {
    CHECK(diff("", "a\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,1 @@\n+a\n");
}

TEST_CASE("unified diff: append at the end of the file") {
    CHECK(diff("a\nb\n", "a\nb\nc\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n b\n+c\n");
    CHECK(diff("a\nb\n", "a\nb\nb\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n b\n+b\n");
    CHECK(diff(numbered(1, 10), numbered(1, 11)).text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+11\n");
}

TEST_CASE("unified diff: insertion in the middle, window empty on the old side") {
    const auto d = diff("a\nb\nc\n", "a\nb\nX\nc\n");
    CHECK(d.text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n b\n+X\n c\n");
    CHECK(d.first_changed_line == 3);
    CHECK(diff("b\nc\n", "a\nb\nc\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n+a\n b\n c\n");
}

TEST_CASE("unified diff: delete everything, and deletion of the file") {
    CHECK(diff("a\nb\n", "").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    const text::DiffOptions o{.old_path = "f.txt", .new_missing = true};
    const auto d = text::unified_diff("a\nb\n", "", o);
    CHECK(d.text == "--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    CHECK(d.removals == 2);
    CHECK(d.first_changed_line == 1);
    // A deleted line in the middle.
    CHECK(diff("a\nb\nc\n", "a\nc\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n a\n-b\n c\n");
}

TEST_CASE("unified diff: no newline at end of file, on either side") {
    CHECK(diff("a\nb", "a\nb\nc").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n"
          "\\ No newline at end of file\n");
    CHECK(diff("a\nb", "a\nb\n").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    CHECK(diff("a\nb\n", "a\nb").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n");
    CHECK(diff("a\nb", "a\nc").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
          "\\ No newline at end of file\n");
    // The last line as unchanged context keeps its marker.
    CHECK(diff("a\nb\nc", "A\nb\nc").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n");
}

TEST_CASE("unified diff: CRLF lines are shown without their CR") {
    const auto d = diff("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n");
    CHECK(d.text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    // A change of terminator only is still a change.
    CHECK(diff("a\r\nb\r\n", "a\nb\r\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+a\n b\n");
    CHECK(diff("x\r\n", "x\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-x\n+x\n");
}

TEST_CASE("unified diff: mixed line endings and lone CR") {
    CHECK(diff("a\nb\r\nc\rd", "a\nb\nc\rd").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,4 @@\n a\n-b\n+b\n c\n d\n\\ No newline at end of file\n");
    CHECK(diff("a\rb\rc\r", "a\rB\rc\r").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    // A lone CR that becomes CRLF.
    CHECK(diff("a\rb\n", "a\r\nb\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+a\n b\n");
}

TEST_CASE("unified diff: hunks split beyond twice the context, merged within") {
    std::string changed = numbered(1, 20);
    changed.replace(changed.find("\n2\n") + 1, 1, "two");
    changed.replace(changed.find("\n18\n") + 1, 2, "eighteen");
    const auto d = diff(numbered(1, 20), changed);
    CHECK(d.text ==
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
          "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n");
    CHECK(d.hunks == 2);
    CHECK(d.additions == 2);
    CHECK(d.removals == 2);
    CHECK(d.first_changed_line == 2);

    std::string close = numbered(1, 20);
    close.replace(close.find("\n2\n") + 1, 1, "two");
    close.replace(close.find("\n8\n") + 1, 1, "eight");
    const auto m = diff(numbered(1, 20), close);
    CHECK(m.hunks == 1);
    CHECK(m.text.find("@@ -1,11 +1,11 @@\n") != std::string::npos);
}

TEST_CASE("unified diff: paths, moves, context size") {
    text::DiffOptions o;
    o.old_path = "/abs/old.txt";
    o.new_path = "/abs/new.txt";
    CHECK(text::unified_diff("a\n", "b\n", o).text ==
          "--- a/abs/old.txt\n+++ b/abs/new.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n");
    o.new_path = "";
    o.context = 0;
    CHECK(text::unified_diff("a\nb\nc\n", "a\nB\nc\n", o).text ==
          "--- a/abs/old.txt\n+++ b/abs/old.txt\n@@ -2,1 +2,1 @@\n-b\n+B\n");
    CHECK(text::unified_diff("a\nb\n", "a\nX\nb\n", o).text ==
          "--- a/abs/old.txt\n+++ b/abs/old.txt\n@@ -1,0 +2,1 @@\n+X\n");
}

TEST_CASE("unified diff: bytes that are not UTF-8 are shown as U+FFFD") {
    CHECK(diff("caf\xE9\n", "cafe\n").text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-caf\xEF\xBF\xBD\n+cafe\n");
}

TEST_CASE("unified diff: the text is capped and says how much was cut") {
    const text::DiffOptions o{.old_path = "f.txt", .old_missing = true, .max_bytes = 100};
    std::string lots;
    for (int i = 0; i < 100; ++i) lots += "x\n";
    const auto d = text::unified_diff("", lots, o);
    std::string expected = "--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1,100 @@\n";
    for (int i = 0; i < 18; ++i) expected += "+x\n";
    expected += "... diff cut here: 82 more lines (246 bytes) not shown\n";
    CHECK(d.text == expected);
    CHECK(d.truncated);
    CHECK(d.additions == 100);
}

TEST_CASE("unified diff: a large file with a one-line change diffs on the window only") {
    std::string big;
    for (int i = 1; i <= 1000000; ++i) big += "line " + std::to_string(i) + "\n";
    std::string changed = big;
    const auto at = changed.find("line 500000\n");
    changed.replace(at, 11, "LINE 500000");
    const auto d = diff(big, changed);
    CHECK(d.text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -499997,7 +499997,7 @@\n line 499997\n line 499998\n line 499999\n"
          "-line 500000\n+LINE 500000\n line 500001\n line 500002\n line 500003\n");
    CHECK(d.first_changed_line == 500000);
}

TEST_CASE("unified diff: far-apart changes in a large window stay exact") {
    // More lines than dtl is given at once: split on unique lines, still a minimal script here.
    std::string a, b;
    for (int i = 0; i < 5000; ++i) {
        a += "row " + std::to_string(i) + "\n";
        b += (i == 3 ? std::string("ROW 3") : i == 4990 ? std::string("ROW 4990") : "row " + std::to_string(i)) + "\n";
    }
    const auto d = diff(a, b);
    CHECK(d.additions == 2);
    CHECK(d.removals == 2);
    CHECK(d.hunks == 2);
    CHECK(d.text.find("@@ -1,7 +1,7 @@\n") != std::string::npos);
    CHECK(d.text.find("@@ -4988,7 +4988,7 @@\n") != std::string::npos);
}

namespace {

// Applies a unified diff (as unified_diff writes it, LF files) to `old_text`.
std::string apply_unified(const std::string& old_text, const std::string& diff_text) {
    std::vector<std::string> old_lines;
    bool old_final_newline = true;
    for (std::size_t b = 0; b < old_text.size();) {
        const std::size_t e = old_text.find('\n', b);
        if (e == std::string::npos) {
            old_lines.push_back(old_text.substr(b));
            old_final_newline = false;
            break;
        }
        old_lines.push_back(old_text.substr(b, e - b));
        b = e + 1;
    }
    std::string out;
    std::size_t cursor = 0;  // next old line
    auto copy_old_until = [&](std::size_t end) {
        for (; cursor < end; ++cursor) {
            out += old_lines[cursor];
            if (cursor + 1 < old_lines.size() || old_final_newline) out += '\n';
        }
    };
    std::vector<std::string> lines;
    for (std::size_t b = 0; b < diff_text.size();) {
        const std::size_t e = diff_text.find('\n', b);
        lines.push_back(diff_text.substr(b, e - b));
        b = e + 1;
    }
    for (std::size_t i = 2; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (l.starts_with("@@")) {
            std::size_t a = 0, n = 0;
            REQUIRE(std::sscanf(l.c_str(), "@@ -%zu,%zu", &a, &n) == 2);
            copy_old_until(n == 0 ? a : a - 1);
        } else if (l[0] == ' ' || l[0] == '-') {
            REQUIRE(cursor < old_lines.size());
            REQUIRE(old_lines[cursor] == l.substr(1));
            if (l[0] == ' ') out += l.substr(1) + "\n";
            ++cursor;
        } else if (l[0] == '+') {
            out += l.substr(1) + "\n";
        } else if (l[0] == '\\') {
            const char previous = lines[i - 1][0];
            if (previous != '-') out.pop_back();
        }
    }
    copy_old_until(old_lines.size());
    return out;
}

}  // namespace

TEST_CASE("property: applying the diff to the old text gives the new text") {
    static const char* const words[] = {"a", "b", "c", "d", ""};
    std::mt19937 rng(2024);
    for (int round = 0; round < 500; ++round) {
        auto random_text = [&](std::size_t lines) {
            std::string s;
            for (std::size_t i = 0; i < lines; ++i) s += std::string(words[rng() % 5]) + "\n";
            if (!s.empty() && rng() % 3 == 0) s.pop_back();
            return s;
        };
        const std::string a = random_text(rng() % 15);
        std::string b;
        if (rng() % 4 == 0) {
            b = random_text(rng() % 15);
        } else {  // a few local changes
            b = a;
            for (int k = rng() % 3; k >= 0; --k) {
                const std::size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
                const std::size_t del = b.empty() ? 0 : rng() % std::min<std::size_t>(4, b.size() - at + 1);
                b.replace(at, del, random_text(rng() % 3));
            }
        }
        const text::DiffOptions o{.old_path = "f", .context = rng() % 4};
        const auto d = text::unified_diff(a, b, o);
        if (a == b) {
            CHECK(d.text.empty());
            continue;
        }
        CHECK(apply_unified(a, d.text) == b);
        std::size_t plus = 0, minus = 0;
        for (std::size_t p = d.text.find('\n') + 1; p < d.text.size(); p = d.text.find('\n', p) + 1) {
            if (d.text.compare(p, 4, "+++ ") == 0) continue;
            if (d.text[p] == '+') ++plus;
            if (d.text[p] == '-') ++minus;
        }
        CHECK(plus == d.additions);
        CHECK(minus == d.removals);
    }
}

TEST_CASE("unified diff: lines appended to a file without a final newline show at its end") {
    // The appended text ends like the old last line (a closing brace): still shown as an append.
    const auto d = diff("fn a() {\n}", "fn a() {\n}\nfn b() {\n}");
    CHECK(d.text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,4 @@\n fn a() {\n-}\n\\ No newline at end of file\n+}\n+fn b() {\n+}\n"
          "\\ No newline at end of file\n");
    CHECK(d.first_changed_line == 2);
    CHECK(d.additions == 3);
    CHECK(d.removals == 1);
    CHECK(diff("a\nb", "a\nb\nb").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+b\n"
          "\\ No newline at end of file\n");
    // And back (undoing the append).
    CHECK(diff("fn a() {\n}\nfn b() {\n}", "fn a() {\n}").text ==
          "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,2 @@\n fn a() {\n-}\n-fn b() {\n-}\n\\ No newline at end of file\n+}\n"
          "\\ No newline at end of file\n");
}

TEST_CASE("unified diff: a change inside one huge line shows a window of the changed bytes") {
    std::string line;
    for (int i = 0; line.size() < 300000; ++i) line += "word" + std::to_string(i % 1000) + " ";
    std::string changed = line;
    changed.replace(150000, 3, "ABC");
    const auto d = diff(line, changed);
    CHECK(d.text.find("diff cut here") == std::string::npos);
    CHECK(d.text.size() < 4096);
    CHECK(d.truncated);
    CHECK(d.additions == 1);
    CHECK(d.removals == 1);
    const std::string before = "[\u2026 149840 bytes of this line not shown] ";
    const std::string after =
        " [\u2026 " + std::to_string(line.size() - 150163) + " more bytes of this line not shown]";
    CHECK(d.text == "--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-" + before + line.substr(149840, 323) + after +
                        "\n\\ No newline at end of file\n+" + before + changed.substr(149840, 323) + after +
                        "\n\\ No newline at end of file\n");
    // A long line that did not change, as context, shows its start.
    const auto ctx = diff("a\n" + line + "\n", "b\n" + line + "\n");
    CHECK(ctx.text.find(" " + line.substr(0, 1024) + " [\u2026 " + std::to_string(line.size() - 1024) +
                        " more bytes of this line not shown]\n") != std::string::npos);
}

TEST_CASE(
    "unified diff: a name that would end or forge a line is quoted as git quotes it, and read back to the same bytes") {
    text::DiffOptions o;
    o.old_path = "odd\n+++ b/run.sh";
    o.old_missing = true;
    const auto d = text::unified_diff("", "x\n", o);
    CHECK(d.text == "--- /dev/null\n+++ \"b/odd\\n+++ b/run.sh\"\n@@ -0,0 +1,1 @@\n+x\n");

    CHECK(text::quote_path("a/", "plain name.txt") == "a/plain name.txt");
    CHECK(text::quote_path("a/", "名字.txt") == "a/名字.txt");  // UTF-8 stays readable
    for (const std::string& name :
         {std::string("tab\there"), std::string("q\"uote"), std::string("back\\slash"), std::string("\x1b[31mred"),
          std::string("cr\r"), std::string("trailing "), std::string("del\x7f"), std::string("nl\nnl")}) {
        const std::string quoted = text::quote_path("b/", name);
        CAPTURE(quoted);
        CHECK(quoted.front() == '"');
        CHECK(quoted.find_first_of("\n\r\x1b\x7f") == std::string::npos);
        CHECK(text::header_name(quoted + "\t2026-01-01") == "b/" + name);
    }
}
