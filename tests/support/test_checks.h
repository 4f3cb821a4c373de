// Checks every test file uses. QVERIFY_OK(expected) verifies a core::Expected
// and, when it failed, prints the error it carries (file, place, problem)
// instead of only the expression's text.
#pragma once

#include <QtTest/QTest>

#define QVERIFY_OK(expected) QVERIFY2(bool(expected), (expected) ? "" : (expected).error().message.c_str())
