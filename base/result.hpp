// Result<T, E>: a value or an error, the one way every layer reports a failure it expects (the
// engine's match and parse errors, the OS layer's path and I/O errors, the tools' model-facing
// Failure). Result<void, E> is success or an error. Nothing throws across a layer for these.
#pragma once

#include <type_traits>
#include <utility>
#include <optional>
#include <variant>

#include "base/error_reason.hpp"

namespace base {

// The error side of a Result, tagged so that T and E may even be the same type.
template <class E>
struct Unexpected {
    E error;
};

template <class E>
Unexpected<std::decay_t<E>> fail(E&& error) {
    return Unexpected<std::decay_t<E>>{std::forward<E>(error)};
}

template <class T, class E = Failure>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    template <class U>
    requires std::is_constructible_v<E, U&&> Result(Unexpected<U> failure)
        : state_(std::in_place_index<1>, E(std::move(failure.error))) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    E& error() & { return std::get<1>(state_); }
    const E& error() const& { return std::get<1>(state_); }
    E&& error() && { return std::get<1>(std::move(state_)); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, E> state_;
};

template <class E>
class [[nodiscard]] Result<void, E> {
public:
    Result() = default;
    template <class U>
    requires std::is_constructible_v<E, U&&> Result(Unexpected<U> failure)
        : error_(std::in_place, E(std::move(failure.error))) {}

    bool ok() const { return !error_.has_value(); }
    explicit operator bool() const { return ok(); }

    E& error() & { return *error_; }
    const E& error() const& { return *error_; }
    E&& error() && { return std::move(*error_); }

private:
    std::optional<E> error_;
};

}  // namespace base
