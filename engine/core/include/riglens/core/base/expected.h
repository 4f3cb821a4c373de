// Expected<T> and Error: how engine/core reports failures a user can cause.
//
// C++20 has no std::expected. A bad file is not a bug, so it is not an
// exception either: loaders return Expected<T>, whose Error carries a code and
// a message that names the file and the problem ("rig.json: /joints/2/part:
// unknown part 'turet'"). Broken internal contracts assert instead.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace riglens::core {

enum class ErrorCode {
  Io,           // the file could not be opened, read or written
  Parse,        // not valid JSON / glTF / binary layout
  Invalid,      // well-formed but breaks the contract (unknown parent, min > max, ...)
  Unsupported,  // valid, but a feature this build does not handle
  Usage,        // an API was called with arguments it refuses (unknown joint, NaN)
  Gpu,          // the GPU or its driver failed: no device, a buffer or pipeline not created, a frame lost
};

std::string_view errorCodeName(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::Invalid;
  std::string message;  // the whole text, naming the file and the place
  // Where, when the loader knows it (errorAt / errorAtByte in json_reader.h
  // fill them): the file, and the JSON pointer or the byte offset inside it.
  std::string file;
  std::string pointer;
  std::optional<std::uint64_t> byteOffset;

  // "<code name>: <message>", for logs and the CLI.
  std::string describe() const;
};

inline Error makeError(ErrorCode code, std::string message) {
  return Error{code, std::move(message), {}, {}, {}};
}

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : m_state(std::move(value)) {}      // NOLINT: implicit on purpose
  Expected(Error error) : m_state(std::move(error)) {}  // NOLINT

  bool hasValue() const { return m_state.index() == 0; }
  explicit operator bool() const { return hasValue(); }

  T& value() & {
    assert(hasValue());
    return std::get<0>(m_state);
  }
  const T& value() const& {
    assert(hasValue());
    return std::get<0>(m_state);
  }
  T&& value() && {
    assert(hasValue());
    return std::get<0>(std::move(m_state));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!hasValue());
    return std::get<1>(m_state);
  }

 private:
  std::variant<T, Error> m_state;
};

// Expected<void>: success carries nothing.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : m_error(std::move(error)), m_failed(true) {}  // NOLINT

  bool hasValue() const { return !m_failed; }
  explicit operator bool() const { return hasValue(); }
  const Error& error() const {
    assert(m_failed);
    return m_error;
  }

 private:
  Error m_error;
  bool m_failed = false;
};

}  // namespace riglens::core
