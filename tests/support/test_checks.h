// Checks every test file uses. QVERIFY_OK(expected) verifies a core::Expected
// and, when it failed, prints the error it carries (file, place, problem)
// instead of only the expression's text.
#pragma once

#include <QtTest/QTest>

#define QVERIFY_OK(expected) QVERIFY2(bool(expected), (expected) ? "" : (expected).error().message.c_str())

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
