// The check runner: which rules match which written files, each run (and its pre-image's) on the
// checks pool, the findings read and compared.
#include "checks/checks.hpp"

#include <mutex>

#include <asio/post.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"
#include "ledger/fingerprint.hpp"
#include "os/file_reads.hpp"
#include "os/file_status.hpp"
#include "os/process.hpp"
#include "os/scratch_files.hpp"
#include "os/paths.hpp"

namespace checks {

// One check of one file: the run on the written bytes, and what its pre-image had.
struct Checks::Job {
    const CheckRule* rule = nullptr;
    std::size_t rule_index = 0;
    bool language_server = false;  // rule_index is into settings_.language_servers
    CheckTarget target;
    CheckOutcome outcome;
    std::vector<Diagnostic> before;  // the pre-image's findings
    bool compared = false;
};

namespace {

using Job = Checks::Job;

// Where a language server for `real` runs: the root that holds it, else its folder.
std::string language_server_root(const os::Workspace& workspace, const std::string& real) {
    const std::string* root = workspace.root_of(real);
    return root ? *root : os::parent_of(real);
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
}

// Every job of one call, shared with the pool's tasks (they may outlive an abandoned wait).
struct Batch {
    explicit Batch(asio::any_io_executor io) : done(std::move(io), asio::steady_timer::time_point::max()) {}
    std::vector<Job> jobs;
    std::size_t remaining = 0;  // tasks not finished; touched on the io thread only
    asio::steady_timer done;    // cancelled when remaining reaches 0
    std::shared_ptr<std::atomic<bool>> cancelled;
};

os::ProcessOutcome run_check(const CheckRule& rule, const CheckSettings& settings, const std::string& path,
                             const std::string& directory, const std::atomic<bool>* cancelled) {
    if (cancelled && cancelled->load()) {
        os::ProcessOutcome out;
        out.cancelled = true;
        out.error = "the call was cancelled before it ran";
        return out;
    }
    os::ProcessRun run;
    run.argv = rule.argv_for(path);
    run.directory = directory;
    run.timeout = settings.timeout;
    run.max_output = settings.max_output;
    run.cancelled = cancelled;
    return os::run_process(run);
}

// The check on a copy of the pre-image: same file name, in a private temp folder, run in the
// real file's folder (so configuration files around it are found); the copy's path in the output
// is replaced by the real one, so findings compare.
os::ProcessOutcome run_on_copy(const CheckRule& rule, const CheckSettings& settings, const std::string& real,
                               std::string_view bytes, const std::atomic<bool>* cancelled) {
    os::ProcessOutcome out;
    const auto folder = os::make_private_directory("mcp-edit-check-");
    if (!folder) {
        out.error = "cannot make a private temp folder for the pre-image";
        return out;
    }
    const std::string copy = *folder + "/" + std::string(os::name_of(real));
    if (os::write_private_file(copy, bytes)) {
        out = run_check(rule, settings, copy, os::parent_of(real), cancelled);
        replace_all(out.output, copy, real);
    } else {
        out.error = "cannot write the pre-image's copy in " + *folder;
    }
    if (!os::remove_private_directory(*folder)) base::log::warn("checks: cannot remove {}", *folder);
    return out;
}

// Whether the file at `target.real` holds the bytes written (`target.after`) and was not
// touched since `before_run` was taken: what a check that ran in between read.
bool still_written(const CheckTarget& target, const os::FileStat& before_run) {
    const os::FileStat now = os::stat_path(target.real);
    if (now.kind != os::FileKind::regular || !now.same_version(before_run) || now.size != target.after->size())
        return false;
    const auto current = os::read_regular_file(target.real, target.after->size());
    return current && current->bytes == *target.after;
}

}  // namespace

std::string path_in_roots(const os::Workspace& workspace, const std::string& real) {
    for (const auto& root : workspace.roots()) {
        if (root == "/") return real.substr(1);
        if (real.size() > root.size() && real.compare(0, root.size(), root) == 0 && real[root.size()] == '/')
            return real.substr(root.size() + 1);
    }
    return real;
}

Checks::Checks(CheckSettings settings, asio::any_io_executor pool)
    : settings_(std::move(settings)), pool_(std::move(pool)) {}

Checks::~Checks() {
    const std::lock_guard lock(servers_mutex_);
    servers_.clear();  // each says shutdown and exit, then is stopped
}

std::shared_ptr<LanguageServer> Checks::language_server(std::size_t rule, const std::string& root) {
    std::shared_ptr<LanguageServer> retired;  // stopped after the lock is let go
    const std::lock_guard lock(servers_mutex_);
    const auto key = std::make_pair(rule, root);
    auto it = servers_.find(key);
    if (it == servers_.end()) {
        if (servers_.size() >= max_language_servers) {
            auto oldest = std::min_element(servers_.begin(), servers_.end(), [](const auto& a, const auto& b) {
                return a.second.second < b.second.second;
            });
            retired = std::move(oldest->second.first);
            servers_.erase(oldest);
        }
        it = servers_
                 .emplace(key, std::make_pair(
                                   std::make_shared<LanguageServer>(settings_.language_servers[rule].argv, root), 0))
                 .first;
    }
    it->second.second = ++server_tick_;
    return it->second.first;
}

void Checks::run_language_server(Job& job, const std::string& root, const std::atomic<bool>* cancelled) {
    const auto start = LanguageServer::Clock::now();
    auto& run = job.outcome.run;
    auto found =
        language_server(job.rule_index, root)
            ->diagnose(job.target.real, job.target.before, *job.target.after, start + settings_.timeout, cancelled);
    run.duration = std::chrono::duration_cast<std::chrono::milliseconds>(LanguageServer::Clock::now() - start);
    if (!found) {
        run.started = found.error().started;
        run.error = found.error().message;
        run.timed_out = found.error().timed_out;
        run.cancelled = found.error().cancelled;
        return;
    }
    run.started = true;
    job.outcome.diagnostics = std::move(found->after);
    job.before = std::move(found->before);
    job.compared = found->compared;
}

asio::awaitable<std::vector<CheckOutcome>> Checks::run(const os::Workspace& workspace, std::vector<CheckTarget> targets,
                                                       std::shared_ptr<std::atomic<bool>> cancelled) {
    auto batch = std::make_shared<Batch>(co_await asio::this_coro::executor);
    batch->cancelled = std::move(cancelled);
    for (auto& target : targets) {
        const std::string relative = path_in_roots(workspace, target.real);
        const std::string name(os::name_of(target.real));
        // Every --check rule, then every --lsp rule, whose glob takes the file.
        const auto add_jobs = [&](const std::vector<CheckRule>& rules, bool language_server) {
            for (std::size_t i = 0; i < rules.size(); ++i) {
                if (!rules[i].glob.matches(name, relative)) continue;
                Job job;
                job.rule = &rules[i];
                job.rule_index = i;
                job.language_server = language_server;
                job.target = target;
                job.outcome.command = job.rule->command;
                job.outcome.file = target.real;
                job.outcome.display = target.display;
                job.outcome.language_server = language_server;
                batch->jobs.push_back(std::move(job));
            }
        };
        add_jobs(settings_.rules, false);
        add_jobs(settings_.language_servers, true);
    }
    if (batch->jobs.empty()) co_return std::vector<CheckOutcome>{};

    // The tasks: each job's written file, and its pre-image when there is one. A task touches
    // only its own job's fields (and the cache, under its lock).
    const auto io = co_await asio::this_coro::executor;
    const auto finished = [batch] {
        if (--batch->remaining == 0) batch->done.cancel();
    };
    for (auto& job : batch->jobs) {
        if (job.language_server) {  // one task: the server is told both images in order
            ++batch->remaining;
            asio::post(pool_,
                       [this, batch, &job, root = language_server_root(workspace, job.target.real), io, finished] {
                           run_language_server(job, root, batch->cancelled.get());
                           asio::post(io, finished);
                       });
            continue;
        }
        for (const bool pre_image : {false, true}) {
            if (pre_image && !job.target.before) continue;
            ++batch->remaining;
            asio::post(pool_, [this, batch, &job, pre_image, io, finished] {
                const std::string directory = os::parent_of(job.target.real);
                const auto* cancel = batch->cancelled.get();
                const auto key = std::make_pair(job.rule_index, job.target.real);
                if (!pre_image) {
                    const os::FileStat before_run = os::stat_path(job.target.real);
                    job.outcome.run = run_check(*job.rule, settings_, job.target.real, directory, cancel);
                    auto found = parse_diagnostics(job.outcome.run.output, job.target.real, directory);
                    attach_line_text(found, job.target.real, *job.target.after);
                    job.outcome.diagnostics = found;
                    // Remembered only as the findings of the bytes this change wrote: not when
                    // another writer (another program, another mcp-edit) changed the file meanwhile.
                    if (job.outcome.run.started && !job.outcome.run.timed_out && !job.outcome.run.cancelled &&
                        still_written(job.target, before_run)) {
                        const std::lock_guard lock(cache_mutex_);
                        if (cache_.size() >= remembered && !cache_.count(key)) cache_.clear();
                        cache_[key] = {ledger::Fingerprint::of(*job.target.after).hex, std::move(found)};
                    }
                } else {
                    const std::string fingerprint = ledger::Fingerprint::of(*job.target.before).hex;
                    bool known = false;
                    {
                        const std::lock_guard lock(cache_mutex_);
                        if (auto it = cache_.find(key); it != cache_.end() && it->second.fingerprint == fingerprint) {
                            job.before = it->second.diagnostics;
                            known = true;
                        }
                    }
                    if (!known) {
                        const auto run = run_on_copy(*job.rule, settings_, job.target.real, *job.target.before, cancel);
                        known = run.started && !run.timed_out && !run.cancelled;
                        job.before = parse_diagnostics(run.output, job.target.real, directory);
                        attach_line_text(job.before, job.target.real, *job.target.before);
                    }
                    job.compared = known;
                }
                asio::post(io, finished);
            });
        }
    }
    asio::error_code woken;  // operation_aborted: done.cancel() by the last task
    co_await batch->done.async_wait(asio::redirect_error(asio::use_awaitable, woken));

    std::vector<CheckOutcome> out;
    out.reserve(batch->jobs.size());
    for (auto& job : batch->jobs) {
        CheckOutcome& outcome = job.outcome;
        outcome.compared = job.compared;
        if (job.compared) {
            auto changes = compare_diagnostics(job.before, outcome.diagnostics);
            outcome.is_new = std::move(changes.is_new);
            outcome.fixed = std::move(changes.fixed);
        } else {
            outcome.is_new.assign(outcome.diagnostics.size(), true);
        }
        out.push_back(std::move(outcome));
    }
    co_return out;
}

}  // namespace checks
