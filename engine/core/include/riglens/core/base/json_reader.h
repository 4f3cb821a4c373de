// Typed reads of JSON that a user gave us, with the JSON pointer of every
// problem: "expected a number at /world_offset/1, got a string".
//
// nlohmann::json's own accessors throw type_error on a wrong type and
// operator[] on a const array does not check bounds, so loaders never call
// them on untrusted documents. They wrap the document in a JsonRef, whose
// reads check the type, the range and the length and, on failure, throw a
// ReadProblem{pointer, message}. The loader's public function runs its body
// through guardRead, which turns the ReadProblem into an Error naming the
// file and the pointer. A ReadProblem never leaves engine/core.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Thrown by JsonRef (and by binary readers that use it for their own
// refusals); caught by guardRead. `pointer` may be empty (the whole file).
struct ReadProblem {
  std::string pointer;
  std::string message;
  // A whole Error from a nested read (another file of the same bundle, say):
  // guardRead returns it as it is.
  std::optional<Error> error;
};

[[noreturn]] void throwReadProblem(std::string pointer, std::string message);
[[noreturn]] void throwError(Error error);

// The value of a nested read, or its Error thrown on to the enclosing guardRead.
template <class T>
T take(Expected<T> result) {
  if (!result) throwError(result.error());
  return std::move(result).value();
}
inline void take(const Expected<void>& result) {
  if (!result) throwError(result.error());
}

// "/a/b" + key, with '~' and '/' escaped as RFC 6901 says.
std::string pointerChild(std::string_view pointer, std::string_view key);
std::string pointerChild(std::string_view pointer, std::size_t index);

// "a number", "a string", "an array", ... for messages.
std::string jsonTypePhrase(const nlohmann::json& value);

class JsonRef {
 public:
  explicit JsonRef(const nlohmann::json& value, std::string pointer = "")
      : m_value(&value), m_pointer(std::move(pointer)) {}

  const nlohmann::json& json() const { return *m_value; }
  const std::string& pointer() const { return m_pointer; }
  // The pointer as it reads in a message: "/" for the root.
  std::string where() const { return m_pointer.empty() ? std::string("/") : m_pointer; }

  [[noreturn]] void fail(const std::string& message) const { throwReadProblem(m_pointer, message); }
  // "expected <what>, got <type>"
  [[noreturn]] void failType(std::string_view what) const;

  bool isNull() const { return m_value->is_null(); }
  bool isObject() const { return m_value->is_object(); }
  bool isArray() const { return m_value->is_array(); }
  bool isString() const { return m_value->is_string(); }
  bool isNumber() const { return m_value->is_number(); }

  // The value itself, type-checked.
  const JsonRef& object() const;
  const JsonRef& array() const;

  // Members of an object (the value must be one).
  bool has(std::string_view key) const;
  JsonRef operator[](std::string_view key) const;                // required: "missing required key 'k'"
  std::optional<JsonRef> find(std::string_view key) const;       // absent or null: nullopt
  std::vector<std::pair<std::string, JsonRef>> members() const;  // in document order

  // Elements of an array (the value must be one).
  std::size_t size() const;
  JsonRef at(std::size_t index) const;  // index < size() or a problem
  std::vector<JsonRef> elements() const;
  // An array of exactly `n` elements ("expected an array of 3 numbers"), or of at most `max`.
  const JsonRef& arrayOfSize(std::size_t n, std::string_view noun = "elements") const;
  const JsonRef& arrayAtMost(std::size_t max) const;

  // Scalars. Numbers must be finite; integers whole and in range.
  double number() const;
  double number(double min, double max) const;
  float toFloat() const;  // a finite number that fits a float
  std::int64_t integer(std::int64_t min, std::int64_t max) const;
  int toInt(int min = std::numeric_limits<int>::min(), int max = std::numeric_limits<int>::max()) const {
    return int(integer(min, max));
  }
  std::size_t count(std::size_t max) const;  // a whole number in [0, max]
  std::string string() const;
  bool boolean() const;

  template <std::size_t N>
  std::array<double, N> numbers() const {
    arrayOfSize(N, "numbers");
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = at(i).number();
    return out;
  }
  std::vector<float> floats(std::size_t maxCount) const;
  std::vector<std::string> strings(std::size_t maxCount) const;

  // A string that must be one of `options` ("'x' is not one of a, b, c").
  template <class Enum, std::size_t N>
  Enum choice(const std::array<std::pair<const char*, Enum>, N>& options) const {
    const std::string text = string();
    std::string allowed;
    for (const auto& [name, value] : options) {
      if (text == name) return value;
      allowed += allowed.empty() ? "" : ", ";
      allowed += name;
    }
    fail("'" + text + "' is not one of " + allowed);
  }

  // Optional members: absent (or null) gives the fallback; present must have the type.
  double numberOr(std::string_view key, double fallback) const;
  std::int64_t integerOr(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max) const;
  std::string stringOr(std::string_view key, std::string fallback) const;
  bool booleanOr(std::string_view key, bool fallback) const;

 private:
  const nlohmann::json* m_value;
  std::string m_pointer;
};

// An Error that names the file and the place; `message` reads
// "<file>: <pointer>: <problem>" (the pointer part left out when empty).
Error errorAt(ErrorCode code, std::string file, std::string pointer, const std::string& problem);
// The same for binary files: "<file>: byte <offset>: <problem>", the offset
// kept in Error::byteOffset.
Error errorAtByte(ErrorCode code, std::string file, std::uint64_t offset, const std::string& problem);

namespace detail {
template <class T>
struct ExpectedValue {
  using type = T;
};
template <class T>
struct ExpectedValue<Expected<T>> {
  using type = T;
};
template <class T>
struct ExpectedValue<const Expected<T>> {
  using type = T;
};
}  // namespace detail

// The boundary of a loader: runs `read` and returns what it returns (T or
// Expected<T>), or an Error naming `source`:
//  - a ReadProblem becomes `code` with its pointer;
//  - anything else thrown (std::bad_alloc, a library's exception) becomes an
//    Invalid error saying the file could not be read, so nothing a file does
//    escapes as an exception. Fuzzing builds (RIGLENS_FUZZING) let those
//    through instead: there they are bugs to find, not inputs to refuse.
template <class F, class R = std::invoke_result_t<F>, class T = typename detail::ExpectedValue<R>::type>
Expected<T> guardRead(std::string_view source, F&& read, ErrorCode code = ErrorCode::Invalid) {
  try {
    if constexpr (std::is_void_v<R>) {
      read();
      return {};
    } else {
      return read();
    }
  } catch (const ReadProblem& problem) {
    if (problem.error) return *problem.error;
    return errorAt(code, std::string(source), problem.pointer, problem.message);
  }
#ifndef RIGLENS_FUZZING
  catch (const std::bad_alloc&) {
    return errorAt(ErrorCode::Invalid, std::string(source), "", "not enough memory to read this file");
  } catch (const std::exception& e) {
    return errorAt(ErrorCode::Invalid, std::string(source), "", std::string("cannot be read (") + e.what() + ")");
  }
#endif
}

}  // namespace riglens::core
