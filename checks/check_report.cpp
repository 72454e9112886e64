// Check outcomes as the model reads them: the summary's sentence, the text block, the JSON.
#include "checks/check_report.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <chrono>
#include <map>

namespace checks {

namespace {

bool answered(const CheckOutcome& c) {
    return c.run.started && !c.run.timed_out && !c.run.cancelled && c.run.error.empty();
}

// A command passes with exit 0; a language server when it answered and reports no error.
bool passed(const CheckOutcome& c) {
    if (c.language_server)
        return answered(c) && std::none_of(c.diagnostics.begin(), c.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == "error"; });
    return c.run.started && !c.run.timed_out && !c.run.cancelled && c.run.exit_code && *c.run.exit_code == 0;
}

std::string seconds(std::chrono::milliseconds duration) {
    const auto tenths = duration.count() / 100;
    return std::to_string(tenths / 10) + (tenths < 100 ? "." + std::to_string(tenths % 10) : "") + " s";
}

// "exited 1", "timed out after 10 s", "could not start (why)", ...
std::string how_it_ended(const CheckOutcome& c) {
    const auto& run = c.run;
    if (!run.started) return "could not start (" + run.error + ")";
    if (c.language_server) {
        if (run.cancelled) return "was not waited for (the call was cancelled)";
        if (run.timed_out)
            return "did not report within " + seconds(run.duration) + " (" + run.error + "; it keeps running)";
        if (!run.error.empty()) return "could not report (" + run.error + ")";
        return passed(c) ? "reported no errors" : "reported";
    }
    if (run.cancelled) return "was stopped (the call was cancelled)";
    if (run.timed_out) return "timed out after " + seconds(run.duration) + " and was killed";
    if (!run.exit_code) return "was ended by signal " + std::to_string(run.signal);
    return *run.exit_code == 0 ? "passed" : "failed (exit " + std::to_string(*run.exit_code) + ")";
}

// "2 new errors, 1 new warning, 1 fixed" (compared) or "2 errors" (not); "" when nothing.
std::string findings(const CheckOutcome& c) {
    std::map<std::string, std::size_t> by_severity;
    for (std::size_t i = 0; i < c.diagnostics.size(); ++i)
        if (c.is_new[i]) ++by_severity[c.diagnostics[i].severity];
    std::string out;
    const std::string adjective = c.compared ? "new " : "";
    for (const auto& [severity, n] : by_severity)
        out += (out.empty() ? "" : ", ") + base::count_of(n, adjective + severity);
    if (c.compared) {
        const std::size_t kept =
            c.diagnostics.size() - static_cast<std::size_t>(std::count(c.is_new.begin(), c.is_new.end(), true));
        if (out.empty() && (kept || !c.fixed.empty())) out = "nothing new";
        if (!c.fixed.empty()) out += ", " + std::to_string(c.fixed.size()) + " fixed";
        if (kept) out += " (" + std::to_string(kept) + " already there before the change)";
    }
    return out;
}

nlohmann::json diagnostic_json(const Diagnostic& d) {
    return {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}};
}

std::string location(const Diagnostic& d, const CheckOutcome& c) {
    std::string where = d.file == c.file ? c.display : d.file;
    if (d.line) where += ":" + std::to_string(d.line);
    if (d.line && d.column) where += ":" + std::to_string(d.column);
    return where;
}

}  // namespace

std::string checks_sentence(const std::vector<CheckOutcome>& checks) {
    if (checks.empty()) return "";
    std::string out = "The change is written; ";
    out += checks.size() == 1 ? "its check" : "its checks";
    out += " (they report, they never undo it): ";
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const auto& c = checks[i];
        if (i) out += "; ";
        out += "`" + c.command + "`" + (c.language_server ? " (language server)" : "") + " on " + c.display + " " +
               how_it_ended(c);
        if (const std::string f = findings(c); !f.empty()) out += ": " + f;
    }
    return out + ".";
}

std::string checks_text(const std::vector<CheckOutcome>& checks) {
    std::string out;
    for (const auto& c : checks) {
        if (passed(c) && c.diagnostics.empty() && c.fixed.empty() && c.run.output.empty()) continue;
        out += (out.empty() ? "" : "\n") + std::string(c.language_server ? "Language server `" : "Check `") +
               c.command + "` on " + c.display + " " + how_it_ended(c) + ".\n";
        for (std::size_t i = 0; i < c.diagnostics.size(); ++i) {
            const auto& d = c.diagnostics[i];
            out += std::string(c.compared ? (c.is_new[i] ? "new " : "old ") : "") + d.severity + " at " +
                   location(d, c) + ": " + d.message + "\n";
        }
        for (const auto& d : c.fixed)
            out += "fixed " + d.severity + " (was at " + location(d, c) + "): " + d.message + "\n";
        if (!c.run.output.empty()) {
            out += "Output:\n" + c.run.output;
            if (c.run.output.back() != '\n') out += "\n";
            if (c.run.output_truncated) out += "[output cut at " + std::to_string(c.run.output.size()) + " bytes]\n";
        }
    }
    return out;
}

nlohmann::json checks_json(const std::vector<CheckOutcome>& checks) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : checks) {
        nlohmann::json diagnostics = nlohmann::json::array();
        for (std::size_t i = 0; i < c.diagnostics.size(); ++i) {
            auto d = diagnostic_json(c.diagnostics[i]);
            d["new"] = c.is_new[i];
            diagnostics.push_back(std::move(d));
        }
        nlohmann::json fixed = nlohmann::json::array();
        for (const auto& d : c.fixed) fixed.push_back(diagnostic_json(d));
        nlohmann::json entry = {
            {"command", c.command},
            {"file", c.file},
            {"exit_code", c.run.exit_code ? nlohmann::json(*c.run.exit_code) : nlohmann::json(nullptr)},
            {"timed_out", c.run.timed_out},
            {"output", c.run.output},
            {"output_truncated", c.run.output_truncated},
            {"duration_ms", c.run.duration.count()},
            {"status", passed(c) ? "passed" : "failed"},
            {"diagnostics", std::move(diagnostics)},
            {"fixed", std::move(fixed)},
            {"compared", c.compared}};
        if (!c.run.error.empty()) entry["error"] = c.run.error;
        if (c.language_server) entry["language_server"] = true;
        if (c.run.cancelled) entry["cancelled"] = true;
        out.push_back(std::move(entry));
    }
    return out;
}

}  // namespace checks
