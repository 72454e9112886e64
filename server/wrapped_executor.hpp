// What an executor that runs its work through another one needs besides execute(): the
// properties asio asks of it (its context, never blocking, outstanding work, relationship),
// forwarded to the inner executor, and equality. StartingExecutor and BudgetedExecutor derive
// from it (CRTP) and supply only execute().
#pragma once

#include <utility>

#include <asio/any_io_executor.hpp>
#include <asio/execution.hpp>
#include <asio/prefer.hpp>
#include <asio/query.hpp>

namespace server {

// `Derived` is constructible from (inner executor, State); `State` is a pointer to what it wraps.
template <class Derived, class State>
class WrappedExecutor {
public:
    WrappedExecutor(asio::any_io_executor inner, State state) : inner_(std::move(inner)), state_(state) {}

    asio::execution_context& query(asio::execution::context_t) const noexcept {
        return asio::query(inner_, asio::execution::context);
    }
    static constexpr asio::execution::blocking_t query(asio::execution::blocking_t) noexcept {
        return asio::execution::blocking.never;
    }
    Derived require(asio::execution::blocking_t::never_t) const { return Derived(inner_, state_); }
    Derived prefer(asio::execution::outstanding_work_t::tracked_t t) const { return rewrapped(t); }
    Derived prefer(asio::execution::outstanding_work_t::untracked_t t) const { return rewrapped(t); }
    Derived prefer(asio::execution::relationship_t::fork_t t) const { return rewrapped(t); }
    Derived prefer(asio::execution::relationship_t::continuation_t t) const { return rewrapped(t); }

    friend bool operator==(const WrappedExecutor& a, const WrappedExecutor& b) noexcept {
        return a.inner_ == b.inner_ && a.state_ == b.state_;
    }
    friend bool operator!=(const WrappedExecutor& a, const WrappedExecutor& b) noexcept { return !(a == b); }

protected:
    const asio::any_io_executor& inner() const { return inner_; }
    State state() const { return state_; }

private:
    template <class Property>
    Derived rewrapped(Property p) const {
        return Derived(asio::prefer(inner_, p), state_);
    }

    asio::any_io_executor inner_;
    State state_;
};

}  // namespace server
