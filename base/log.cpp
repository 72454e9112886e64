// The one file that compiles spdlog: every other file logs through base/log.hpp, which keeps
// spdlog's header-only code (seconds of compile time per file) out of them.
#include "base/log.hpp"

#include <iterator>
#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace base::log {

namespace {

static_assert(static_cast<int>(Level::trace) == spdlog::level::trace &&
              static_cast<int>(Level::debug) == spdlog::level::debug &&
              static_cast<int>(Level::info) == spdlog::level::info &&
              static_cast<int>(Level::warn) == spdlog::level::warn &&
              static_cast<int>(Level::error) == spdlog::level::err &&
              static_cast<int>(Level::critical) == spdlog::level::critical &&
              static_cast<int>(Level::off) == spdlog::level::off);

spdlog::level::level_enum spdlog_level(Level level) { return static_cast<spdlog::level::level_enum>(level); }

class ForwardSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit ForwardSink(Forward forward) : forward_(std::move(forward)) {}

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        forward_(static_cast<Level>(msg.level), std::string_view(msg.logger_name.data(), msg.logger_name.size()),
                 std::string_view(msg.payload.data(), msg.payload.size()));
    }
    void flush_() override {}

private:
    Forward forward_;
};

}  // namespace

bool enabled(Level level) { return spdlog::default_logger_raw()->should_log(spdlog_level(level)); }

void write(Level level, fmt::string_view format, fmt::format_args args) {
    try {
        fmt::memory_buffer text;
        fmt::vformat_to(std::back_inserter(text), format, args);
        spdlog::default_logger_raw()->log(spdlog_level(level), spdlog::string_view_t(text.data(), text.size()));
    } catch (const std::exception&) {
        // A record that cannot be formatted (or a sink that failed) is lost, not the caller's work.
    }
}

bool to_stderr_or_file(Level level, const std::string& file, std::string& error) {
    spdlog::sink_ptr sink;
    try {
        if (file.empty())
            sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        else
            sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file);
    } catch (const spdlog::spdlog_ex& e) {
        error = e.what();
        return false;
    }
    sink->set_level(spdlog_level(level));
    auto logger = std::make_shared<spdlog::logger>("mcp-edit", sink);
    logger->set_level(spdlog_level(level));
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
    logger->flush_on(spdlog::level::warn);
    spdlog::set_default_logger(logger);
    return true;
}

void also_forward(Level level, Forward forward) {
    auto sink = std::make_shared<ForwardSink>(std::move(forward));
    sink->set_level(spdlog_level(level));
    spdlog::default_logger()->sinks().push_back(sink);
}

void set_level(Level level) { spdlog::default_logger()->set_level(spdlog_level(level)); }

void flush() { spdlog::default_logger()->flush(); }

}  // namespace base::log
