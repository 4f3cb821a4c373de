// Where tests write what a person should look at (images on failure, logs).
#pragma once

#include <QtCore/QString>

namespace riglens::test {

// The build's test-output folder (RIGLENS_TEST_OUTPUT_DIR), created if needed.
QString outputDir();

// outputDir() + "/" + fileName.
QString outputPath(const QString& fileName);

}  // namespace riglens::test
