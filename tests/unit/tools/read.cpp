// Unit tests of the read tool, called in process: reads take the file's lane, except behind a
// change that waits for a human (an open approval form), which they do not wait for.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

namespace {

// A gate that opens a form, saying so when `says_it_waits` (as the session's legacy gate does), and
// approves: once `answer_when` holds (polled; at most 10 s) or, without it, after `open_for`.
// `on_open` runs when the form opens.
tools::ApprovalGate slow_gate(asio::io_context& io, std::chrono::milliseconds open_for, bool says_it_waits,
                              std::vector<std::string>& log, std::function<void()> on_open = {},
                              std::function<bool()> answer_when = {}) {
    return [&io, open_for, says_it_waits, &log, on_open,
            answer_when](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
        if (says_it_waits && ask.waiting_for_human) ask.waiting_for_human();
        log.push_back("form open");
        if (on_open) on_open();
        if (answer_when) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!answer_when() && std::chrono::steady_clock::now() < give_up) {
                asio::steady_timer t(io, std::chrono::milliseconds(1));
                co_await t.async_wait(asio::use_awaitable);
            }
        } else {
            asio::steady_timer t(io, open_for);
            co_await t.async_wait(asio::use_awaitable);
        }
        log.push_back("answered");
        tools::ApprovalDecision d;
        d.kind = tools::ApprovalDecision::Kind::approved;
        d.approval = tools::ApprovalSource::user;
        co_return d;
    };
}

}  // namespace

TEST_CASE("read: does not wait behind an open approval form of the same file; returns the bytes on disk") {
    for (const std::string tool : {"edit", "apply_diff"}) {
        CAPTURE(tool);
        Fixture f;
        f.put("a.txt", "one\ntwo\n");
        std::vector<std::string> log;
        std::optional<tools::ToolResult> change, read_before_form, read_while_open;
        // The second read starts when the form opens; the form is answered once both reads have
        // ended (or 10 s have passed: then the order checked below shows which read waited).
        f.ctx.approve = slow_gate(
            f.io, std::chrono::milliseconds(0), true, log,
            [&] {
                f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read_while_open, &log, "read 2 done");
            },
            [&] { return read_before_form.has_value() && read_while_open.has_value(); });
        if (tool == "edit")
            f.start(tools::edit_handler(),
                    {{"file_path", f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}}, change, &log,
                    "change done");
        else
            f.start(tools::apply_diff_handler(), {{"diff", "--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-two\n+TWO\n"}},
                    change, &log, "change done");
        // In line before the form opened: let go when it opens.
        f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read_before_form, &log, "read 1 done");
        f.io.run();
        REQUIRE(change.has_value());
        CHECK_FALSE(change->is_error);
        REQUIRE(read_before_form.has_value());
        REQUIRE(read_while_open.has_value());
        // Both reads end while the form is open; which of the two ends first is up to the scheduler
        // (under load the first one's wake-up can come after the second read).
        std::string order;
        for (const auto& entry : log) order += entry + "; ";
        CAPTURE(order);
        REQUIRE(log.size() == 5);
        CHECK(log[0] == "form open");
        CHECK(std::is_permutation(log.begin() + 1, log.begin() + 3,
                                  std::vector<std::string>{"read 1 done", "read 2 done"}.begin()));
        CHECK(log[3] == "answered");
        CHECK(log[4] == "change done");
        CHECK(read_before_form->structured["text"] == "     1\tone\n     2\ttwo");
        CHECK(read_while_open->structured["text"] == "     1\tone\n     2\ttwo");
        CHECK(f.get("a.txt") == "one\nTWO\n");
        CHECK(f.lanes.lanes() == 0);
    }
}

TEST_CASE("read: still waits for a change that is not waiting for a human, and sees it") {
    Fixture f;
    f.put("a.txt", "one\ntwo\n");
    std::vector<std::string> log;
    f.ctx.approve = slow_gate(f.io, std::chrono::milliseconds(200), false, log);  // e.g. slow work, no form
    std::optional<tools::ToolResult> change, read;
    f.start(tools::edit_handler(), {{"file_path", f.path("a.txt")}, {"old_string", "two"}, {"new_string", "TWO"}},
            change, &log, "change done");
    f.start(tools::read_handler(), {{"file_path", f.path("a.txt")}}, read, &log, "read done");
    f.io.run();
    REQUIRE(read.has_value());
    CHECK(log == std::vector<std::string>{"form open", "answered", "change done", "read done"});
    CHECK(read->structured["text"] == "     1\tone\n     2\tTWO");
}

TEST_CASE(
    "read: a host that shows results inside JSON gets the numbers unpadded, in content[0] and structuredContent") {
    Fixture fx;
    fx.put("x.txt", "alpha\n\tbeta\n");
    fx.scope.result_view = {tools::ResultView::Shows::structured_only, true};
    const tools::ToolResult r = fx.read("x.txt");
    REQUIRE_FALSE(r.is_error);
    CHECK(r.text == "1\talpha\n2\t\tbeta");
    CHECK(r.structured["text"] == r.text);
    CHECK(r.structured["end_line"] == 2);
    CHECK_FALSE(r.extra_text.empty());  // the facts in content[1], for the contract's content-only readers
    Fixture plain;                      // a client not known: cat -n
    plain.put("x.txt", "alpha\n");
    CHECK(plain.read("x.txt").text == "     1\talpha");
}

TEST_CASE(
    "read: for a client that shows structuredContent and content[] both, the text and the facts are each there once") {
    Fixture fx;
    fx.put("x.txt", "alpha\nbeta\n");
    fx.scope.result_view = {tools::ResultView::Shows::both, false};
    const tools::ToolResult r = fx.read("x.txt");
    REQUIRE_FALSE(r.is_error);
    CHECK(r.text == "     1\talpha\n     2\tbeta");
    CHECK(r.structured["text"] == "(the numbered lines are in the text after this JSON)");
    CHECK(r.structured["total_lines"] == 2);
    CHECK(r.extra_text.empty());  // no second copy of the facts
}

TEST_CASE("read: with unpadded numbers the page budget holds more lines") {
    std::string body;
    for (int i = 0; i < 40; ++i) body += "x\n";
    std::int64_t end_padded = 0, end_unpadded = 0;
    for (const bool escaped : {false, true}) {
        Fixture fx;
        fx.put("x.txt", body);
        fx.settings.limits.max_result_text = 100;
        fx.scope.result_view.escaped = escaped;
        const tools::ToolResult r = fx.read("x.txt");
        REQUIRE_FALSE(r.is_error);
        CHECK(r.structured["truncated"] == true);
        (escaped ? end_unpadded : end_padded) = r.structured["end_line"].get<std::int64_t>();
        CHECK(r.text.size() <= 100);
    }
    CHECK(end_padded >= 9);
    CHECK(end_unpadded > end_padded + 5);
}

TEST_CASE("read: file_paths for a client that shows both: the JSON points to the text; unpadded when escaped") {
    Fixture fx;
    fx.put("a.txt", "one\n");
    fx.put("b.txt", "two\n");
    fx.scope.result_view = {tools::ResultView::Shows::both, true};
    const tools::ToolResult r =
        fx.call(tools::read_handler(), {{"file_paths", {fx.path("a.txt"), fx.path("b.txt"), fx.path("none.txt")}}});
    REQUIRE_FALSE(r.is_error);
    CHECK(r.text.starts_with("Read 2 of 3 files"));
    CHECK(r.text.find("==> " + fx.path("a.txt") + " <==\n1\tone") != std::string::npos);
    CHECK(r.text.find("==> " + fx.path("b.txt") + " <==\n1\ttwo") != std::string::npos);
    CHECK(r.text.find("[not read]") != std::string::npos);
    CHECK(r.structured["text"] == "(the numbered lines are in the text after this JSON)");
    CHECK(r.structured["files"].size() == 3);
}

TEST_CASE(
    "a file over --max-file-size: the refusal says both sizes, in exact bytes when rounding would make them read the "
    "same") {
    Fixture f;
    f.put("big.txt", std::string(3000, 'x'));
    f.put("edge.txt", std::string(2049, 'x'));
    const auto refusal = [&](const std::string& name) {
        tools::FileSnapshot s;
        auto resolved = f.workspace.resolve(name);
        REQUIRE(resolved.ok());
        s.file.path = std::move(resolved).value();
        auto loaded = tools::load_text_file(f.ctx, name, s.file);
        REQUIRE_FALSE(loaded.ok());
        CHECK(loaded.error().reason == base::ErrorReason::too_large);
        return loaded.error().message;
    };
    f.settings.limits.max_file_size = 1024;
    CHECK(refusal("big.txt").find(" is 2.9 KiB, over the limit of 1.0 KiB (--max-file-size).") != std::string::npos);
    f.settings.limits.max_file_size = 2048;
    CHECK(refusal("edge.txt").find(" is 2,049 bytes, over the limit of 2,048 bytes (--max-file-size).") !=
          std::string::npos);
}
