// riglens-quick3d-example PATH [--tint MODE] [--look review|pbr] [--fixed-camera] [--set NAME=VALUE]... [--play NAME]
// [--time S]
// [--screenshot FILE.png]: a Qt Quick 3D app that embeds a voxel rig through the RigLens.Quick3D module (Main.qml).
// --screenshot saves the shown window after a few frames and exits.
#include <QtCore/QCommandLineParser>
#include <QtCore/QDir>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtGui/QGuiApplication>
#include <QtGui/QImage>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickWindow>
#include <cstdio>

int main(int argc, char* argv[]) {
  QGuiApplication app(argc, argv);
  QCommandLineParser parser;
  parser.addHelpOption();
  parser.addPositionalArgument("path", "A run folder, rig.json, run record or mesh.glb.");
  const QCommandLineOption screenshot("screenshot", "Save the window as PNG after it has drawn, then exit.", "file");
  const QCommandLineOption tint("tint", "Tint: color, part, joint or normals.", "mode", "color");
  const QCommandLineOption look("look", "Look: review (the tints) or pbr (the file's materials).", "look", "review");
  const QCommandLineOption fixedCamera("fixed-camera",
                                       "Keep the camera at 100 units on z instead of framing the model (to compare "
                                       "one rig in several forms under one camera).");
  const QCommandLineOption set("set", "Set a caller joint (repeatable), e.g. --set turret_yaw=0.6.", "name=value");
  const QCommandLineOption play("play", "Play this animation.", "name");
  const QCommandLineOption time("time", "Hold the clock at this time (seconds).", "seconds");
  for (const auto& option : {screenshot, tint, look, fixedCamera, set, play, time}) parser.addOption(option);
  parser.process(app);
  if (parser.positionalArguments().isEmpty()) {
    std::fprintf(stderr, "riglens-quick3d-example: give a run folder (riglens-cli samples writes some)\n");
    return 2;
  }
  QQmlApplicationEngine engine;
  // Where the build puts the module; an installed module is found on Qt's own QML path.
  engine.addImportPath(QStringLiteral(RIGLENS_QML_BUILD_DIR));
  const QUrl rig = QUrl::fromLocalFile(QDir(parser.positionalArguments().first()).absolutePath());
  engine.setInitialProperties({{"rigSource", rig}, {"framed", !parser.isSet(fixedCamera)}});
  engine.load(QUrl(QStringLiteral("qrc:/Main.qml")));
  if (engine.rootObjects().isEmpty()) return 1;
  auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().first());
  // The options pose the rig through its QML API, as a user's QML would.
  if (QObject* rigNode = window->findChild<QObject*>(QStringLiteral("rig"))) {
    rigNode->setProperty("tint", parser.value(tint));
    rigNode->setProperty("look", parser.value(look));
    for (const QString& assignment : parser.values(set)) {
      bool parsed = false, applied = false;
      const double value = assignment.section('=', 1).toDouble(&parsed);
      if (parsed)
        QMetaObject::invokeMethod(rigNode, "setJoint", Q_RETURN_ARG(bool, applied),
                                  Q_ARG(QString, assignment.section('=', 0, 0)), Q_ARG(double, value));
      if (!applied) std::fprintf(stderr, "riglens-quick3d-example: cannot set %s\n", qPrintable(assignment));
    }
    if (parser.isSet(play)) QMetaObject::invokeMethod(rigNode, "play", Q_ARG(QString, parser.value(play)));
    if (parser.isSet(time)) {
      rigNode->setProperty("running", false);
      rigNode->setProperty("time", parser.value(time).toDouble());
    }
  }
  if (parser.isSet(screenshot)) {
    // Hidden windows grab black in Qt Quick 3D: the window is shown; a few
    // frames let the scene settle.
    auto frames = std::make_shared<int>(0);
    QObject::connect(
        window, &QQuickWindow::frameSwapped, window,
        [=, &parser] {
          if (++*frames < 5) return window->update();
          QObject::disconnect(window, &QQuickWindow::frameSwapped, window, nullptr);
          const QString path = parser.value(screenshot);
          const bool ok = window->grabWindow().save(path);
          if (ok) std::printf("%s\n", qPrintable(QDir(path).absolutePath()));
          QCoreApplication::exit(ok ? 0 : 1);
        },
        Qt::QueuedConnection);
  }
  return QGuiApplication::exec();
}
