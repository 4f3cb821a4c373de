#include "test_paths.h"

#include <QtCore/QDir>

namespace riglens::test {

QString outputDir() {
  QString dir = qEnvironmentVariable("RIGLENS_TEST_OUTPUT_DIR");
  if (dir.isEmpty()) dir = QStringLiteral(RIGLENS_TEST_OUTPUT_DIR);  // run by hand, outside ctest
  QDir().mkpath(dir);
  return dir;
}

QString outputPath(const QString& fileName) {
  return QDir(outputDir()).filePath(fileName);
}

}  // namespace riglens::test
