#include "playback_controller.h"

#include <algorithm>

#include "app_controller.h"
#include "rig_models.h"

namespace riglens::app {

PlaybackController::PlaybackController(AppController& app)
    : QObject(&app), m_app(app), m_animations(new AnimationListModel(&app)) {
  // Animation clock: ~60 Hz while a rig is open (autoPlay idles run by default).
  m_clock.setInterval(16);
  connect(&m_clock, &QTimer::timeout, this, &PlaybackController::tick);
  connect(&m_app, &AppController::poseChanged, this, &PlaybackController::timeChanged);
}

void PlaybackController::documentChanged() {
  m_animations->reload();
  if (m_app.document()) {
    m_sinceTick.start();
    m_clock.start();
  } else {
    m_clock.stop();
  }
  emit playbackChanged();
}

void PlaybackController::tick() {
  Document* doc = m_app.document();
  if (!doc) return;
  const double dt = m_sinceTick.isValid() ? m_sinceTick.restart() / 1000.0 : 0.0;
  doc->controller().update(std::min(dt, 0.1));  // a stalled GUI does not jump the clock
  m_app.notifyPosed();
}

QStringList PlaybackController::animationNames() const {
  QStringList names;
  if (Document* doc = m_app.document())
    for (const auto& clip : doc->controller().clips()) names << QString::fromStdString(clip.name);
  return names;
}

QString PlaybackController::playingAnimation() const {
  Document* doc = m_app.document();
  if (!doc) return {};
  const auto name = doc->controller().playing();
  return name ? QString::fromStdString(*name) : QString();
}

double PlaybackController::playTimeMs() const {
  Document* doc = m_app.document();
  return doc ? doc->controller().playableTimeMs() : 0.0;
}

double PlaybackController::playPeriodMs() const {
  Document* doc = m_app.document();
  return doc ? doc->controller().playablePeriodMs() : 0.0;
}

bool PlaybackController::paused() const {
  Document* doc = m_app.document();
  return doc && doc->controller().paused();
}

void PlaybackController::setPaused(bool paused) {
  Document* doc = m_app.document();
  if (!doc || paused == this->paused()) return;
  doc->controller().setPaused(paused);
  emit playbackChanged();
}

bool PlaybackController::loop() const {
  Document* doc = m_app.document();
  return doc && doc->controller().playableLooping();
}

void PlaybackController::setLoop(bool loop) {
  Document* doc = m_app.document();
  if (!doc) return;
  doc->controller().setLoopOverride(loop);
  emit playbackChanged();
  m_app.notifyPosed();
}

double PlaybackController::speed() const {
  Document* doc = m_app.document();
  return doc ? doc->controller().speed() : 1.0;
}

void PlaybackController::setSpeed(double speed) {
  Document* doc = m_app.document();
  if (!doc) return;
  doc->controller().setSpeed(speed);
  emit playbackChanged();
}

bool PlaybackController::autoPlayMuted() const {
  Document* doc = m_app.document();
  return doc && !doc->controller().autoPlayEnabled();
}

void PlaybackController::setAutoPlayMuted(bool muted) {
  Document* doc = m_app.document();
  if (!doc) return;
  doc->controller().setAutoPlayEnabled(!muted);
  emit playbackChanged();
  m_app.notifyPosed();
}

bool PlaybackController::play(const QString& animation) {
  Document* doc = m_app.document();
  if (!doc) return false;
  if (auto ok = doc->controller().play(animation.toStdString()); !ok) {
    m_app.reportError(QString::fromStdString(ok.error().message));
    return false;
  }
  doc->controller().setLoopOverride(std::nullopt);
  doc->controller().setPaused(false);
  emit playbackChanged();
  m_app.notifyPosed();
  return true;
}

void PlaybackController::stop() {
  Document* doc = m_app.document();
  if (!doc) return;
  (void)doc->controller().play(std::nullopt);
  doc->controller().setPaused(false);
  emit playbackChanged();
  m_app.notifyPosed();
}

void PlaybackController::togglePause() {
  setPaused(!paused());
}

void PlaybackController::seek(double timeMs) {
  Document* doc = m_app.document();
  if (!doc || !doc->controller().playing()) return;
  doc->controller().seekPlayable(std::clamp(timeMs, 0.0, playPeriodMs()));
  m_app.notifyPosed();
}

void PlaybackController::stepFrame(int direction) {
  Document* doc = m_app.document();
  if (!doc || !doc->controller().playing()) return;
  setPaused(true);
  seek(playTimeMs() + (direction < 0 ? -kFrameStepMs : kFrameStepMs));
}

}  // namespace riglens::app
