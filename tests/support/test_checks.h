// Checks every test file uses. QVERIFY_OK(expected) verifies a core::Expected
// and, when it failed, prints the error it carries (file, place, problem)
// instead of only the expression's text.
#pragma once

#include <QtTest/QTest>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <iterator>
#include <span>
#include <type_traits>
#include <vector>

#define QVERIFY_OK(expected) QVERIFY2(bool(expected), (expected) ? "" : (expected).error().message.c_str())

namespace riglens::test {

// A QByteArray's bytes, as the readers take them.
inline std::span<const std::uint8_t> byteSpan(const QByteArray& bytes) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())};
}

// Empty when `result` is a refusal whose message starts with "`file`: " and
// contains `expected`; otherwise what happened instead.
template <class Result>
QString refusalMismatch(const Result& result, const QString& file, const QString& expected) {
  if (result) return "accepted; expected a refusal saying: " + expected;
  const QString message = QString::fromStdString(result.error().message);
  if (message.startsWith(file + ": ") && message.contains(expected)) return {};
  return "refused with \"" + message + "\"; expected \"" + file + ": ...\" saying: " + expected;
}

}  // namespace riglens::test

// `result` (a core::Expected) is a refusal naming `file` and saying `expected`.
#define QVERIFY_REFUSED(result, file, expected)                                              \
  do {                                                                                       \
    const QString refusalMismatch_ = riglens::test::refusalMismatch(result, file, expected); \
    QVERIFY2(refusalMismatch_.isEmpty(), qPrintable(refusalMismatch_));                      \
  } while (false)

// |actual - expected| <= tolerance (a named constant from tolerances.h),
// printing both values and the difference when it fails.
#define QCOMPARE_NEAR(actual, expected, tolerance)                                           \
  do {                                                                                       \
    const double riglensActual_ = double(actual), riglensExpected_ = double(expected);       \
    QVERIFY2(std::abs(riglensActual_ - riglensExpected_) <= double(tolerance),               \
             qPrintable(QStringLiteral("%1 = %2, expected %3 (difference %4, tolerance %5)") \
                            .arg(QStringLiteral(#actual))                                    \
                            .arg(riglensActual_, 0, 'g', 9)                                  \
                            .arg(riglensExpected_, 0, 'g', 9)                                \
                            .arg(std::abs(riglensActual_ - riglensExpected_), 0, 'g', 3)     \
                            .arg(double(tolerance), 0, 'g', 3)));                            \
  } while (false)

namespace riglens::test {

// The values of a scalar, a glm vector or matrix (column by column) or a
// range of scalars (std::vector, std::span, std::array, a C array), as doubles.
template <class T>
std::vector<double> flatValues(const T& value) {
  if constexpr (std::is_arithmetic_v<T>) {
    return {double(value)};
  } else if constexpr (requires { typename T::col_type; }) {  // glm matrix
    std::vector<double> out;
    for (glm::length_t c = 0; c < value.length(); ++c)
      for (glm::length_t r = 0; r < value[c].length(); ++r) out.push_back(double(value[c][r]));
    return out;
  } else if constexpr (requires {
                         value.length();
                         typename T::value_type;
                       }) {  // glm vector
    std::vector<double> out;
    for (glm::length_t i = 0; i < value.length(); ++i) out.push_back(double(value[i]));
    return out;
  } else {
    std::vector<double> out;
    for (const auto& x : value) out.push_back(double(x));
    return out;
  }
}

// Why `actual` is not within `tolerance` of `expected`, element by element:
// the sizes when they differ, else the first element outside with both
// values, its difference and the tolerance, how many are outside and the
// largest difference. Empty when every element is within.
inline QString nearMismatch(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance) {
  if (actual.size() != expected.size())
    return QStringLiteral("%1 values, expected %2").arg(actual.size()).arg(expected.size());
  std::size_t first = actual.size(), outside = 0;
  double largest = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double difference = std::abs(actual[i] - expected[i]);
    if (!(difference <= tolerance)) {  // NaN counts as outside
      if (first == actual.size()) first = i;
      ++outside;
    }
    if (difference > largest) largest = difference;
  }
  if (outside == 0) return {};
  return QStringLiteral("[%1] = %2, expected %3 (difference %4, tolerance %5); %6 of %7 outside, largest difference %8")
      .arg(first)
      .arg(actual[first], 0, 'g', 9)
      .arg(expected[first], 0, 'g', 9)
      .arg(std::abs(actual[first] - expected[first]), 0, 'g', 3)
      .arg(tolerance, 0, 'g', 3)
      .arg(outside)
      .arg(actual.size())
      .arg(largest, 0, 'g', 3);
}

}  // namespace riglens::test

// Every element of `actual` (a scalar, glm vector or matrix, or range) within
// `tolerance` (a named constant) of the same element of `expected`; on
// failure prints the first element outside, both values, the difference,
// the tolerance, and how many are outside.
#define QCOMPARE_NEAR_ALL(actual, expected, tolerance)                                                         \
  do {                                                                                                         \
    const QString riglensWhy_ = riglens::test::nearMismatch(riglens::test::flatValues(actual),                 \
                                                            riglens::test::flatValues(expected), (tolerance)); \
    QVERIFY2(riglensWhy_.isEmpty(), qPrintable(QStringLiteral(#actual ": ") + riglensWhy_));                   \
  } while (false)
