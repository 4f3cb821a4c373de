#include "riglens/core/base/json_reader.h"

#include <cmath>

namespace riglens::core {

void throwReadProblem(std::string pointer, std::string message) {
  throw ReadProblem{std::move(pointer), std::move(message), std::nullopt};
}

void throwError(Error error) {
  throw ReadProblem{{}, {}, std::move(error)};
}

std::string pointerChild(std::string_view pointer, std::string_view key) {
  std::string out(pointer);
  out += '/';
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string pointerChild(std::string_view pointer, std::size_t index) {
  std::string out(pointer);
  out += '/';
  out += std::to_string(index);
  return out;
}

std::string jsonTypePhrase(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "a number";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
  }
  return "something else";
}

void JsonRef::failType(std::string_view what) const {
  fail("expected " + std::string(what) + ", got " + jsonTypePhrase(*m_value));
}

const JsonRef& JsonRef::object() const {
  if (!m_value->is_object()) failType("an object");
  return *this;
}

const JsonRef& JsonRef::array() const {
  if (!m_value->is_array()) failType("an array");
  return *this;
}

bool JsonRef::has(std::string_view key) const {
  object();
  return m_value->find(key) != m_value->end();
}

JsonRef JsonRef::operator[](std::string_view key) const {
  object();
  const auto it = m_value->find(key);
  if (it == m_value->end()) fail("missing required key '" + std::string(key) + "'");
  return JsonRef(*it, pointerChild(m_pointer, key));
}

std::optional<JsonRef> JsonRef::find(std::string_view key) const {
  object();
  const auto it = m_value->find(key);
  if (it == m_value->end() || it->is_null()) return std::nullopt;
  return JsonRef(*it, pointerChild(m_pointer, key));
}

std::vector<std::pair<std::string, JsonRef>> JsonRef::members() const {
  object();
  std::vector<std::pair<std::string, JsonRef>> out;
  out.reserve(m_value->size());
  for (auto it = m_value->begin(); it != m_value->end(); ++it)
    out.emplace_back(it.key(), JsonRef(*it, pointerChild(m_pointer, it.key())));
  return out;
}

std::size_t JsonRef::size() const {
  array();
  return m_value->size();
}

JsonRef JsonRef::at(std::size_t index) const {
  if (index >= size())
    fail("has " + std::to_string(m_value->size()) + " elements; element " + std::to_string(index) + " is missing");
  return JsonRef((*m_value)[index], pointerChild(m_pointer, index));
}

std::vector<JsonRef> JsonRef::elements() const {
  const std::size_t n = size();
  std::vector<JsonRef> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.emplace_back((*m_value)[i], pointerChild(m_pointer, i));
  return out;
}

const JsonRef& JsonRef::arrayOfSize(std::size_t n, std::string_view noun) const {
  const std::string what = "an array of " + std::to_string(n) + " " + std::string(noun);
  if (!m_value->is_array()) failType(what);
  if (m_value->size() != n) fail("expected " + what + ", got " + std::to_string(m_value->size()));
  return *this;
}

const JsonRef& JsonRef::arrayAtMost(std::size_t max) const {
  if (size() > max)
    fail("has " + std::to_string(m_value->size()) + " elements, more than the " + std::to_string(max) +
         " allowed here");
  return *this;
}

double JsonRef::number() const {
  if (!m_value->is_number()) failType("a number");
  const double v = m_value->get<double>();
  if (!std::isfinite(v)) fail("the number is not finite");
  return v;
}

double JsonRef::number(double min, double max) const {
  const double v = number();
  if (v < min || v > max)
    fail(std::to_string(v) + " is outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

float JsonRef::toFloat() const {
  const double v = number();
  if (std::abs(v) > double(std::numeric_limits<float>::max())) fail(std::to_string(v) + " does not fit a 32-bit float");
  return float(v);
}

std::int64_t JsonRef::integer(std::int64_t min, std::int64_t max) const {
  std::int64_t v = 0;
  if (m_value->is_number_unsigned()) {
    const std::uint64_t u = m_value->get<std::uint64_t>();
    if (u > std::uint64_t(std::numeric_limits<std::int64_t>::max())) fail(std::to_string(u) + " is too large");
    v = std::int64_t(u);
  } else if (m_value->is_number_integer()) {
    v = m_value->get<std::int64_t>();
  } else if (m_value->is_number_float()) {
    // 3.0 is a whole number; JSON writers differ in how they print it.
    const double d = m_value->get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::abs(d) > 9.0e15) failType("a whole number");
    v = std::int64_t(d);
  } else {
    failType("a whole number");
  }
  constexpr auto kLowest = std::numeric_limits<std::int64_t>::min(),
                 kHighest = std::numeric_limits<std::int64_t>::max();
  if (v < min && max == kHighest) fail("must be at least " + std::to_string(min) + ", got " + std::to_string(v));
  if (v > max && min == kLowest) fail("must be at most " + std::to_string(max) + ", got " + std::to_string(v));
  if (v < min || v > max)
    fail(std::to_string(v) + " is outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

std::size_t JsonRef::count(std::size_t max) const {
  const std::size_t limit = std::min<std::size_t>(max, std::size_t(std::numeric_limits<std::int64_t>::max()));
  return std::size_t(integer(0, std::int64_t(limit)));
}

std::string JsonRef::string() const {
  if (!m_value->is_string()) failType("a string");
  return m_value->get<std::string>();
}

bool JsonRef::boolean() const {
  if (!m_value->is_boolean()) failType("true or false");
  return m_value->get<bool>();
}

std::vector<float> JsonRef::floats(std::size_t maxCount) const {
  arrayAtMost(maxCount);
  std::vector<float> out;
  out.reserve(m_value->size());
  for (std::size_t i = 0; i < m_value->size(); ++i) out.push_back(at(i).toFloat());
  return out;
}

std::vector<std::string> JsonRef::strings(std::size_t maxCount) const {
  arrayAtMost(maxCount);
  std::vector<std::string> out;
  out.reserve(m_value->size());
  for (std::size_t i = 0; i < m_value->size(); ++i) out.push_back(at(i).string());
  return out;
}

double JsonRef::numberOr(std::string_view key, double fallback) const {
  const auto member = find(key);
  return member ? member->number() : fallback;
}

std::int64_t JsonRef::integerOr(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max) const {
  const auto member = find(key);
  return member ? member->integer(min, max) : fallback;
}

std::string JsonRef::stringOr(std::string_view key, std::string fallback) const {
  const auto member = find(key);
  return member ? member->string() : std::move(fallback);
}

bool JsonRef::booleanOr(std::string_view key, bool fallback) const {
  const auto member = find(key);
  return member ? member->boolean() : fallback;
}

Error errorAt(ErrorCode code, std::string file, std::string pointer, const std::string& problem) {
  Error error;
  error.code = code;
  error.message = file;
  if (!pointer.empty()) error.message += (error.message.empty() ? "" : ": ") + pointer;
  error.message += (error.message.empty() ? "" : ": ") + problem;
  error.file = std::move(file);
  error.pointer = std::move(pointer);
  return error;
}

Error errorAtByte(ErrorCode code, std::string file, std::uint64_t offset, const std::string& problem) {
  Error error = errorAt(code, std::move(file), "byte " + std::to_string(offset), problem);
  error.pointer.clear();
  error.byteOffset = offset;
  return error;
}

}  // namespace riglens::core
