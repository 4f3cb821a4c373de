// PlaybackController (controller.playback): the open rig's animations - which
// one plays, its time, pause, loop, speed, frame steps and the muted idles -
// and the ~60 Hz clock that advances them. Poses the Document it is handed
// (setDocument) and reports every pose it makes as posed(), so the viewport
// and the Joints panel follow. GUI thread.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QTimer>

#include "qml_owned.h"
#include "reporting_controller.h"

namespace riglens::app {

class AnimationListModel;
class Document;

class PlaybackController : public ReportingController {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(riglens::app::AnimationListModel* animations READ animations CONSTANT)
  Q_PROPERTY(QStringList animationNames READ animationNames NOTIFY playbackChanged)
  Q_PROPERTY(QString playingAnimation READ playingAnimation NOTIFY playbackChanged)
  Q_PROPERTY(double playTimeMs READ playTimeMs NOTIFY timeChanged)
  Q_PROPERTY(double playPeriodMs READ playPeriodMs NOTIFY playbackChanged)
  Q_PROPERTY(bool paused READ paused WRITE setPaused NOTIFY playbackChanged)
  Q_PROPERTY(bool loop READ loop WRITE setLoop NOTIFY playbackChanged)
  Q_PROPERTY(double speed READ speed WRITE setSpeed NOTIFY playbackChanged)
  Q_PROPERTY(bool autoPlayMuted READ autoPlayMuted WRITE setAutoPlayMuted NOTIFY playbackChanged)

 public:
  static constexpr double kFrameStepMs = 1000.0 / 30.0;

  explicit PlaybackController(QObject* parent);

  AnimationListModel* animations() const { return m_animations; }
  QStringList animationNames() const;
  QString playingAnimation() const;
  double playTimeMs() const;
  double playPeriodMs() const;
  bool paused() const;
  void setPaused(bool paused);
  bool loop() const;
  void setLoop(bool loop);
  double speed() const;
  void setSpeed(double speed);
  bool autoPlayMuted() const;
  void setAutoPlayMuted(bool muted);

  Q_INVOKABLE bool play(const QString& animation);  // from 0
  Q_INVOKABLE void stop();
  Q_INVOKABLE void togglePause();
  Q_INVOKABLE void seek(double timeMs);
  Q_INVOKABLE void stepFrame(int direction);  // +1 / -1 frame at 30 fps, pauses

  // The open rig (null: none, or a character): the clock runs while one is open.
  void setDocument(Document* document);

 signals:
  void playbackChanged();
  void timeChanged();

 private:
  void tick();

  Document* m_doc = nullptr;
  AnimationListModel* m_animations;
  QTimer m_clock;
  QElapsedTimer m_sinceTick;
};

}  // namespace riglens::app
