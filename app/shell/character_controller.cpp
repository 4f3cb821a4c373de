#include "character_controller.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "decode_worker.h"
#include "expression_channel_model.h"
#include "locations.h"
#include "name_lists.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/dna/dna_matrices.h"

namespace riglens::app {

namespace {
constexpr auto kGazeSegment = "gaze";
}

CharacterController::CharacterController(QObject* parent)
    : ReportingController(parent), m_channels(new ExpressionChannelModel(this)), m_decode(new DecodeWorker(this)) {
  connect(m_decode, &DecodeWorker::opened, this, &CharacterController::decodeOpened);
  connect(m_decode, &DecodeWorker::decoded, this, &CharacterController::decodeFinished);
  connect(m_decode, &DecodeWorker::failed, this, [this](const QString& message) {
    m_decodeError = message;
    emit problemsFound({{m_scene && m_scene->bundle ? m_scene->bundle->folder.string() : std::string(), "",
                         message.toStdString(), core::Severity::Error}});
    emit decodedChanged();
  });
}
CharacterController::~CharacterController() = default;

QObject* CharacterController::channels() const {
  return m_channels;
}

QString CharacterController::kind() const {
  if (!m_scene) return {};
  return m_scene->kind == core::SceneKind::Splats ? QStringLiteral("splats") : QStringLiteral("character");
}

QString CharacterController::channelMode() const {
  if (m_scene && m_scene->orl) return QString::fromLatin1(orlChannelModeName(m_orlMode));
  return m_arkitMode ? QStringLiteral("arkit") : QStringLiteral("gnm");
}

QString CharacterController::rigBackend() const {
  if (!m_scene || m_scene->kind != core::SceneKind::Character) return {};
  return m_scene->orl ? QStringLiteral("orl") : QStringLiteral("gnm");
}

QVariantMap CharacterController::info() const {
  if (!m_scene) return {};
  QVariantMap info{{"title", QString::fromStdString(m_scene->title)},
                   {"path", QString::fromStdString(m_scene->path.string())},
                   {"kind", kind()},
                   {"residentBytes", qint64(m_scene->residentBytes)}};
  if (m_scene->cloud) {
    info["gaussians"] = qint64(m_scene->cloud->count);
    info["shDegree"] = m_scene->cloud->shDegree;
  }
  if (const core::AosRigPack* pack = m_scene->pack.get()) {
    info["vertices"] = qint64(pack->vertexCount);
    info["coefficients"] = qint64(pack->coeffCount);
    info["joints"] = int(pack->joints.size());
    info["controls"] = pack->headExt.dim;
    info["expressionSpace"] = QString::fromLatin1(core::expressionKindName(m_scene->expression.kind));
    info["arkitMap"] = m_scene->expression.arkitMap.has_value();
    info["files"] = int(m_scene->files.size());
    QStringList problems;
    for (const auto& p : m_scene->problems) problems << QString::fromStdString(p.describe());
    info["problems"] = problems;
  }
  if (const core::OrlCharacter* orl = m_scene->orl.get()) {
    const core::Dna& dna = *orl->dna;
    info["vertices"] = qint64(orl->pack->vertexCount);
    info["joints"] = int(dna.jointCount());
    info["controls"] = int(dna.guiControlNames.size());
    info["rawControls"] = int(dna.rawCount());
    info["channels"] = int(dna.blendShapeCount());
    info["correctives"] = int(dna.psdCount);
    info["rbfSolvers"] = int(dna.rbfSolvers.size());
    info["lods"] = int(dna.lodCount);
    info["dna"] = QStringLiteral("DNA 2.%1 (%2)").arg(dna.version).arg(QString::fromStdString(dna.name));
    info["expressionSpace"] = QStringLiteral("dna");
    info["arkitMap"] = true;  // ARKit -> MetaHuman board -> the DNA's GUI controls
    info["files"] = int(m_scene->files.size());
    QStringList problems;
    for (const auto& p : m_scene->problems) problems << QString::fromStdString(p.describe());
    for (const auto& p : m_orlPoser ? m_orlPoser->rig().problems() : std::vector<std::string>())
      problems << QString::fromStdString(p);
    info["problems"] = problems;
  }
  return info;
}

QVariantList CharacterController::dnaMatrices() const {
  QVariantList out;
  if (!m_scene || !m_scene->orl) return out;
  for (const core::DnaMatrix& m : core::dnaMatrices(*m_scene->orl->dna))
    out.append(QVariantMap{{"name", QString::fromStdString(m.name)},
                           {"rows", qint64(m.rows)},
                           {"columns", qint64(m.columns)},
                           {"values", qint64(m.values)},
                           {"bytes", qint64(m.bytes)}});
  return out;
}

bool CharacterController::arkitAvailable() const {
  if (m_scene && m_scene->orl) return true;
  return m_scene && m_scene->pack &&
         (m_scene->expression.arkitMap.has_value() || m_scene->expression.kind == core::ExpressionKind::Arkit52);
}

namespace {

// Where the up chosen for a splat file is kept: one key per absolute path.
QString splatUpKey(const std::filesystem::path& file) {
  const QByteArray path = QFileInfo(QString::fromStdString(file.string())).absoluteFilePath().toUtf8();
  return QStringLiteral("splatUp/") +
         QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex());
}

}  // namespace

QString CharacterController::splatUp() const {
  if (!m_scene || m_scene->kind != core::SceneKind::Splats) return {};
  return QString::fromLatin1(core::splatUpName(m_splatUp));
}

glm::mat4 CharacterController::sceneToWorld() const {
  if (!m_scene || m_scene->kind != core::SceneKind::Splats) return glm::mat4(1.0f);
  return core::splatToWorld(m_splatUp);
}

void CharacterController::flipSplatUp() {
  if (!m_scene || m_scene->kind != core::SceneKind::Splats) return;
  m_splatUp = core::flippedUp(m_splatUp);
  QSettings().setValue(splatUpKey(m_scene->path), QString::fromLatin1(core::splatUpName(m_splatUp)));
  emit splatUpChanged();
}

// What a reload carries over (setScene): channel values by group and name.
struct CharacterController::Carried {
  std::map<QString, float> values;
  std::array<float, 4> gaze{};
  bool arkitMode = false;
  OrlChannelMode orlMode = OrlChannelMode::Gui;
  std::map<QString, glm::vec3> jointDegrees;
  core::BodyPose bodyPose;
  std::vector<std::string> hiddenBranches;
  core::SplatUp splatUp = core::SplatUp::PlusY;
};

namespace {
QString channelKey(const ExpressionChannel& channel) {
  return channel.group + '/' + channel.name;
}
}  // namespace

CharacterController::Carried CharacterController::carried() const {
  Carried c{{}, m_gaze, m_arkitMode, m_orlMode, m_jointDegrees, m_bodyPose, m_hiddenBranches, m_splatUp};
  const auto& channels = m_channels->channels();
  for (std::size_t i = 0; i < channels.size() && i < m_values.size(); ++i)
    c.values[channelKey(channels[i])] = m_values[i];
  return c;
}

// After the new scene's reset, before its channels are built: the modes the
// new scene still has, then the values of the channels it still has.
void CharacterController::restore(const Carried& c) {
  m_arkitMode = c.arkitMode && m_scene->pack && m_scene->expression.kind == core::ExpressionKind::Arkit52;
  if (m_scene->orl) m_orlMode = c.orlMode;
  m_splatUp = c.splatUp;
  m_gaze = c.gaze;
  m_jointDegrees = c.jointDegrees;
  m_bodyPose = c.bodyPose;
  m_hiddenBranches = c.hiddenBranches;
  rebuildChannels();
  const auto& channels = m_channels->channels();
  for (std::size_t i = 0; i < channels.size() && i < m_values.size(); ++i)
    if (auto it = c.values.find(channelKey(channels[i])); it != c.values.end())
      m_values[i] = float(std::clamp(double(it->second), channels[i].minimum, channels[i].maximum));
  m_channels->valuesChanged();
}

void CharacterController::setScene(std::shared_ptr<const core::CharacterScene> scene, bool reload) {
  std::optional<Carried> kept;
  if (reload && m_scene && scene && scene->kind == m_scene->kind) kept = carried();
  const core::SplatUp upBefore = m_splatUp;
  m_scene = std::move(scene);
  m_splatUp = m_scene ? m_scene->up : core::SplatUp::PlusY;
  if (m_scene && m_scene->kind == core::SceneKind::Splats)
    if (auto remembered = core::parseSplatUp(QSettings().value(splatUpKey(m_scene->path)).toString().toStdString()))
      m_splatUp = *remembered;
  m_arkitMode = m_scene && m_scene->pack && m_scene->expression.kind == core::ExpressionKind::Arkit52;
  m_orlMode = OrlChannelMode::Gui;
  m_orlPoser.reset();
  m_bundleRig.reset();
  if (m_scene && m_scene->orl)
    if (auto poser = core::OrlPoser::create(*m_scene->orl)) m_orlPoser = std::move(poser).value();
  if (m_scene && m_scene->bundle && m_scene->bundle->orl)
    if (auto rig = core::OrlBundleRig::create(m_scene->bundle->orl, m_scene->bundle->orlControls))
      m_bundleRig = std::move(rig).value();
  m_gaze = {};
  m_jointDegrees.clear();
  m_memory.clear();
  if (!m_renderError.isEmpty()) {
    m_renderError.clear();
    m_computeMissing = false;
    emit renderErrorChanged();
  }
  setRefusal({});
  if (!kept) m_camera.reset();  // a reload keeps the viewport's camera, which it hands over only when it moves
  m_bodyPose = {};
  m_hiddenBranches.clear();
  m_decodeError.clear();
  m_decodeStats.clear();
  m_decode->open(decodable() ? m_scene->bundle : nullptr);
  if (kept)
    restore(*kept);
  else
    rebuildChannels();
  recompute();
  emit decodedChanged();
  emit decodeStatsChanged();
  emit sceneChanged();
  // The viewport frames the scene again when its up axis turns; a reload that
  // keeps it keeps the camera.
  if (!kept || m_splatUp != upBefore) emit splatUpChanged();
  emit channelModeChanged();
  emit memoryChanged();
}

void CharacterController::rebuildChannels() {
  std::vector<ExpressionChannel> channels;
  m_channelSlot.clear();
  const core::AosRigPack* pack = m_scene ? m_scene->pack.get() : nullptr;
  if (m_scene && m_scene->orl) {
    channels = orlChannels(*m_scene->orl->dna, m_orlMode);
  } else if (pack && m_arkitMode) {
    for (const auto& name : core::arkitNames())
      channels.push_back({QString::fromStdString(name), QStringLiteral("ARKit-52"), 0.0, 1.0});
  } else if (pack) {
    const core::ExpressionSpace& space = m_scene->expression;
    const std::vector<std::string> names = space.names.empty() ? core::headExtNames(pack->headExt) : space.names;
    auto segments = space.segments;
    if (segments.empty())
      for (const auto& region : pack->headExt.regions)
        segments.push_back(
            {region.name, segments.empty() ? 0 : segments.back().start + segments.back().count, region.count});
    for (const auto& segment : segments) {
      if (segment.name == kGazeSegment) continue;  // the Gaze section drives those
      for (int i = segment.start; i < segment.start + segment.count && i < pack->headExt.dim; ++i) {
        const QString name =
            std::size_t(i) < names.size() ? QString::fromStdString(names[std::size_t(i)]) : QString::number(i);
        channels.push_back({name, QString::fromStdString(segment.name), m_scene->rigRangeLo, m_scene->rigRangeHi});
        m_channelSlot.push_back(i);
      }
    }
  }
  m_values.assign(channels.size(), 0.0f);
  m_channels->setChannels(std::move(channels), &m_values);
}

core::Expected<void> CharacterController::applyHeadExt(std::span<const float> headExt) {
  const core::AosRigPack* pack = m_scene ? m_scene->pack.get() : nullptr;
  if (!pack) return core::makeError(core::ErrorCode::Usage, "no character is open");
  const core::HeadExtLayout& layout = pack->headExt;
  if (int(headExt.size()) > layout.dim)
    return core::makeError(core::ErrorCode::Invalid, "the controls hold " + std::to_string(headExt.size()) +
                                                         " values; this character takes " + std::to_string(layout.dim));
  for (float v : headExt)
    if (!std::isfinite(v)) return core::makeError(core::ErrorCode::Invalid, "the controls hold a non-finite value");
  if (m_arkitMode) {
    m_arkitMode = false;
    rebuildChannels();
    emit channelModeChanged();
  }
  const auto at = [&](int i) { return std::size_t(i) < headExt.size() ? headExt[std::size_t(i)] : 0.0f; };
  for (std::size_t c = 0; c < m_values.size(); ++c) m_values[c] = at(m_channelSlot[c]);
  for (int k = 0; k < 4; ++k) m_gaze[std::size_t(k)] = layout.gazeDim >= 4 ? at(layout.exprDim + k) : 0.0f;
  setRefusal({});
  m_channels->valuesChanged();
  recompute();
  return {};
}

void CharacterController::recompute() {
  m_headExt.clear();
  if (m_scene && m_scene->orl) {
    m_headExt = orlControlsFor(*m_scene->orl->dna, m_orlMode, m_values);
    const auto mode = m_orlMode == OrlChannelMode::Raw ? core::DnaControlMode::Raw : core::DnaControlMode::Gui;
    if (m_orlPoser) (void)m_orlPoser->evaluate(m_headExt, mode);
    m_decodeRig.clear();
    if (m_bundleRig) {
      auto rig = m_bundleRig->rigVectorFor(m_headExt, mode);
      if (rig)
        m_decodeRig = std::move(rig).value();
      else if (decodable() && m_showDecoded)  // raw values for GUI-named decoders: the preview can show them
        setRefusal(QString::fromStdString(rig.error().message) + tr("; the preview shows them"));
    }
    requestDecode();
    emit controlsChanged();
    return;
  }
  const core::AosRigPack* pack = m_scene ? m_scene->pack.get() : nullptr;
  if (!pack) {
    emit controlsChanged();
    return;
  }
  const core::HeadExtLayout& layout = pack->headExt;
  if (m_arkitMode) {
    auto mapped = core::toRigVector(m_scene->expression, core::ExpressionKind::Arkit52, m_values, &layout);
    if (!mapped) {
      setRefusal(QString::fromStdString(mapped.error().message));
      return;
    }
    m_headExt = std::move(mapped).value();
    m_headExt.resize(std::size_t(layout.dim), 0.0f);
  } else {
    m_headExt.assign(std::size_t(layout.dim), 0.0f);
    for (std::size_t c = 0; c < m_values.size(); ++c) m_headExt[std::size_t(m_channelSlot[c])] = m_values[c];
  }
  // The Gaze section adds to what the expression derived (the ARKit map's EyeLook* terms).
  if (layout.gazeDim >= 4 && layout.exprDim + 4 <= layout.dim)
    for (std::size_t k = 0; k < 4; ++k) m_headExt[std::size_t(layout.exprDim) + k] += m_gaze[k];
  requestDecode();
  emit controlsChanged();
}

bool CharacterController::decodedAvailable() const {
  return m_decode->isOpen();
}

void CharacterController::setShowDecoded(bool show) {
  if (show == m_showDecoded) return;
  m_showDecoded = show;
  emit decodedChanged();
  emit controlsChanged();  // the viewport draws the other sink
  requestDecode();
}

std::shared_ptr<const render::DecodedLayout> CharacterController::decodedLayout() const {
  return m_decode->layout();
}
std::shared_ptr<const core::DecodedOutputs> CharacterController::decodedOutputs() const {
  return m_decode->latest();
}

bool CharacterController::decodable() const {
  // The decoded path is GNM-driven: an ORL bundle's decoders are left closed (its preview draws).
  return m_scene && (m_scene->pack || m_bundleRig) && m_scene->bundle && !m_scene->bundle->decoders.empty() &&
         m_decodeError.isEmpty();
}

bool CharacterController::decodeBusy() const {
  return m_decode->busy();
}

core::Bounds CharacterController::viewBounds() const {
  if (decodable() && m_showDecoded) return core::decodedBounds(*m_scene->bundle);
  return m_scene ? m_scene->bounds : core::Bounds{};
}

void CharacterController::setViewCamera(const core::PluckerCamera& camera) {
  if (m_camera && !core::cameraMoved(*m_camera, camera)) return;
  m_camera = camera;
  requestDecode();
}

// The decoders see the controls the frame carries and the viewport's camera;
// nothing is decoded while the preview is shown.
void CharacterController::requestDecode() {
  const std::vector<float>& rig = m_bundleRig ? m_decodeRig : m_headExt;  // in the decoders' order
  if (!m_decode->isOpen() || !m_showDecoded || !m_camera || rig.empty()) return;
  core::PluckerCamera local = *m_camera;  // into the character root's frame
  local.position -= glm::vec3(m_bodyPose.rootPos);
  m_decode->request(rig, local);
}

void CharacterController::decodeOpened(const core::Diagnostics& notes) {
  emit problemsFound(notes);
  emit decodedChanged();
  requestDecode();
}

void CharacterController::decodeFinished() {
  const auto& out = m_decode->latest();
  if (!out) return;
  QVariantMap stats{{"pass", QString::fromUtf8(core::decodePassName(out->pass))},
                    {"totalMs", m_decode->lastDecodeMs()},
                    {"decodes", qint64(m_decode->serial())},
                    {"decoderBytes", qint64(m_decode->weightBytes())}};
  QVariantList branches;
  double trunk = 0, geom = 0, appr = 0;
  int trunkRuns = 0, geomRuns = 0, apprRuns = 0;
  const auto& layout = m_decode->layout();
  for (std::size_t i = 0; i < out->runs.size(); ++i) {
    const core::SessionRuns& r = out->runs[i];
    trunk += out->pass == core::DecodePass::Full ? r.trunkMs : 0;
    geom += out->pass == core::DecodePass::Full ? r.geomMs : 0;
    appr += r.apprMs;
    trunkRuns += r.trunk, geomRuns += r.geom, apprRuns += r.appr;
    if (layout && i < layout->branches.size())
      branches.append(QVariantMap{{"name", QString::fromStdString(layout->branches[i].name)},
                                  {"slots", layout->branches[i].placement.slotCount}});
  }
  stats.insert({{"trunkMs", trunk},
                {"geomMs", geom},
                {"apprMs", appr},
                {"trunkRuns", trunkRuns},
                {"geomRuns", geomRuns},
                {"apprRuns", apprRuns},
                {"branches", branches}});
  m_decodeStats = stats;
  emit decodeStatsChanged();
  emit decodedFrame();
}

void CharacterController::setRefusal(const QString& refusal) {
  if (refusal == m_refusal) return;
  m_refusal = refusal;
  emit refusalChanged();
}

void CharacterController::clearRefusal() {
  setRefusal({});
}

bool CharacterController::setChannelMode(const QString& mode) {
  if (m_scene && m_scene->orl) {
    const std::optional<OrlChannelMode> chosen = mode == "gui"     ? std::optional(OrlChannelMode::Gui)
                                                 : mode == "raw"   ? std::optional(OrlChannelMode::Raw)
                                                 : mode == "arkit" ? std::optional(OrlChannelMode::Arkit)
                                                                   : std::nullopt;
    if (!chosen) return false;
    if (*chosen == m_orlMode) return true;
    setRefusal({});
    m_orlMode = *chosen;
    rebuildChannels();
    recompute();
    emit channelModeChanged();
    return true;
  }
  if (mode != "gnm" && mode != "arkit") return false;
  const bool arkit = mode == "arkit";
  if (!m_scene || !m_scene->pack) return false;
  if (arkit == m_arkitMode) return true;
  if (arkit && !arkitAvailable()) {
    // The core's own refusal, so the UI says exactly what the API would.
    auto refused = core::toRigVector(m_scene->expression, core::ExpressionKind::Arkit52,
                                     std::vector<float>(core::kArkitCount, 0.0f), &m_scene->pack->headExt);
    setRefusal(refused ? tr("ARKit-52 is not available for this character")
                       : QString::fromStdString(refused.error().message));
    return false;
  }
  setRefusal({});
  m_arkitMode = arkit;
  rebuildChannels();
  recompute();
  emit channelModeChanged();
  return true;
}

void CharacterController::setChannel(int channel, double value) {
  if (channel < 0 || std::size_t(channel) >= m_values.size() || !std::isfinite(value)) return;
  const ExpressionChannel& c = m_channels->channels()[std::size_t(channel)];
  const float clamped = float(std::clamp(value, c.minimum, c.maximum));
  if (m_values[std::size_t(channel)] == clamped) return;
  m_values[std::size_t(channel)] = clamped;
  m_channels->valuesChanged();
  recompute();
}

double CharacterController::channelValue(int channel) const {
  return channel >= 0 && std::size_t(channel) < m_values.size() ? double(m_values[std::size_t(channel)]) : 0.0;
}

int CharacterController::findChannel(const QString& name) const {
  const auto& channels = m_channels->channels();
  for (std::size_t i = 0; i < channels.size(); ++i)
    if (channels[i].name == name) return int(i);
  return -1;
}

void CharacterController::resetChannels() {
  std::fill(m_values.begin(), m_values.end(), 0.0f);
  m_channels->valuesChanged();
  recompute();
}

void CharacterController::setFilter(const QString& filter) {
  if (filter == m_filter) return;
  m_filter = filter;
  m_channels->setFilter(filter);
  emit filterChanged();
}

QStringList CharacterController::tints() const {
  QStringList names;
  for (render::CharacterTint t : render::kAllCharacterTints) names << QString::fromLatin1(render::characterTintName(t));
  return names;
}

QString CharacterController::tint() const {
  return QString::fromLatin1(render::characterTintName(m_look.tint));
}

void CharacterController::setTint(const QString& tint) {
  const auto parsed = render::parseCharacterTint(tint.toStdString());
  if (!parsed || *parsed == m_look.tint) return;
  m_look.tint = *parsed;
  emit lookChanged();
}

void CharacterController::setSigma(double sigma) {
  // 0.1 mm .. 5 cm: below, the splats vanish under a pixel; above, the face is a blur.
  const float clamped = float(std::clamp(sigma, 1e-4, 0.05));
  if (!std::isfinite(sigma) || clamped == m_look.sigma) return;
  m_look.sigma = clamped;
  emit lookChanged();
}

void CharacterController::setOpacity(double opacity) {
  const float clamped = float(std::clamp(opacity, 0.0, 1.0));
  if (!std::isfinite(opacity) || clamped == m_look.opacity) return;
  m_look.opacity = clamped;
  emit lookChanged();
}

QVariantList CharacterController::gaze() const {
  return {m_gaze[0], m_gaze[1], m_gaze[2], m_gaze[3]};
}

void CharacterController::setGaze(int component, double radians) {
  if (component < 0 || component > 3 || !std::isfinite(radians)) return;
  m_gaze[std::size_t(component)] = float(std::clamp(radians, -kMaxGazeRadians, kMaxGazeRadians));
  recompute();
}

void CharacterController::lookAt(double x, double y, double z) {
  const core::AosRigPack* pack = m_scene ? m_scene->pack.get() : nullptr;
  if (!pack || pack->eyePositions.size() < 6 || !std::isfinite(x + y + z)) return;
  const auto gaze =
      core::gazeAt(std::span<const float, 6>(pack->eyePositions.data(), 6), glm::vec3(float(x), float(y), float(z)));
  for (std::size_t k = 0; k < 4; ++k) m_gaze[k] = float(std::clamp(double(gaze[k]), -kMaxGazeRadians, kMaxGazeRadians));
  recompute();
}

void CharacterController::resetGaze() {
  m_gaze = {};
  recompute();
}

QStringList CharacterController::jointNames() const {
  if (m_scene && m_scene->pack) return namesOf(m_scene->pack->joints);
  QStringList names;
  if (m_scene && m_scene->orl)
    for (const auto& j : m_scene->orl->dna->jointNames) names << QString::fromStdString(j);
  return names;
}

QString CharacterController::jointOutputText(const QString& joint) const {
  if (!m_scene || !m_scene->orl || !m_orlPoser) return {};
  const auto& names = m_scene->orl->dna->jointNames;
  const auto it = std::find(names.begin(), names.end(), joint.toStdString());
  if (it == names.end()) return {};
  const auto o = m_orlPoser->jointOutputs().subspan(std::size_t(it - names.begin()) * 9, 9);
  const auto three = [&](std::size_t k) {
    return QStringLiteral("%1, %2, %3")
        .arg(double(o[k]), 0, 'g', 4)
        .arg(double(o[k + 1]), 0, 'g', 4)
        .arg(double(o[k + 2]), 0, 'g', 4);
  };
  const bool degrees = m_scene->orl->dna->rotationInDegrees();
  return tr("move (%1) %2\nturn (%3) %4\nscale (%5)")
      .arg(three(0), m_scene->orl->dna->translationUnit == 0 ? QStringLiteral("cm") : QStringLiteral("m"), three(3),
           degrees ? QStringLiteral("deg") : QStringLiteral("rad"), three(6));
}

void CharacterController::setJointRotation(const QString& joint, double pitchDeg, double yawDeg, double rollDeg) {
  // ORL joints follow the DNA only (the contract's joint overrides are inert for ORL).
  if ((m_scene && m_scene->orl) || !jointNames().contains(joint) || !std::isfinite(pitchDeg + yawDeg + rollDeg)) return;
  const glm::vec3 degrees(float(std::clamp(pitchDeg, -90.0, 90.0)), float(std::clamp(yawDeg, -90.0, 90.0)),
                          float(std::clamp(rollDeg, -90.0, 90.0)));
  if (degrees == glm::vec3(0.0f))
    m_jointDegrees.erase(joint);
  else
    m_jointDegrees[joint] = degrees;
  emit controlsChanged();
}

QVariantList CharacterController::jointRotation(const QString& joint) const {
  const auto it = m_jointDegrees.find(joint);
  const glm::vec3 d = it == m_jointDegrees.end() ? glm::vec3(0.0f) : it->second;
  return {d.x, d.y, d.z};
}

void CharacterController::resetJoints() {
  m_jointDegrees.clear();
  emit controlsChanged();
}

render::CharacterFrame CharacterController::frame() const {
  render::CharacterFrame frame;
  frame.controls = m_headExt;
  frame.rawControls = m_scene && m_scene->orl && m_orlMode == OrlChannelMode::Raw;
  frame.look = m_look;
  frame.preview = !m_showDecoded;
  frame.awaitDecode = decodable();
  // The body pose's bones first, the panel's rotations on top of them.
  frame.jointOverrides = m_bodyPose.bones;
  for (const auto& [name, degrees] : m_jointDegrees) {
    const glm::dquat panel(glm::radians(glm::dvec3(degrees)));
    const auto body = std::find_if(frame.jointOverrides.begin(), frame.jointOverrides.end(),
                                   [&](const auto& o) { return o.first == name.toStdString(); });
    if (body != frame.jointOverrides.end())
      body->second = body->second * panel;
    else
      frame.jointOverrides.emplace_back(name.toStdString(), panel);
  }
  frame.rootPosition = glm::vec3(m_bodyPose.rootPos);
  frame.hiddenBranches = m_hiddenBranches;
  return frame;
}

void CharacterController::setRenderReport(const QVariantMap& report, const QString& error, bool computeMissing) {
  QVariantMap memory = report;
  const QVariantMap frame = memory.take("frame").toMap();
  if (frame != m_frameReport) {
    m_frameReport = frame;
    emit frameReportChanged();
  }
  if (memory != m_memory) {
    m_memory = memory;
    emit memoryChanged();
  }
  const bool missing = !error.isEmpty() && computeMissing;
  if (error != m_renderError || missing != m_computeMissing) {
    m_renderError = error;
    m_computeMissing = missing;
    emit renderErrorChanged();
  }
}

// ------------------------------------------------------------------ controls files
bool CharacterController::saveControls(const QVariant& location) {
  const QString path = localPath(location);
  if (!m_scene || (!m_scene->pack && !m_scene->orl)) {
    emit errorReported(tr("Save controls: no character is open"));
    return false;
  }
  const core::DnaControlMode dnaMode =
      m_orlMode == OrlChannelMode::Raw ? core::DnaControlMode::Raw : core::DnaControlMode::Gui;
  const std::string text = (m_scene->orl ? core::orlControlsToJson(*m_scene->orl->dna, {dnaMode, m_headExt})
                                         : core::controlsToJson(m_scene->pack->headExt, m_headExt))
                               .dump(2) +
                           "\n";
  const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (auto written = core::writeFileAtomically(path.toStdString(), bytes); !written) {
    emit errorReported(QString::fromStdString(written.error().message));
    return false;
  }
  emit statusReported(tr("Saved the controls to %1").arg(path));
  return true;
}

std::optional<nlohmann::json> CharacterController::readCharacterJson(const QString& path, const QString& action) {
  if (!m_scene || (!m_scene->pack && !m_scene->orl)) {
    emit errorReported(tr("%1: no character is open").arg(action));
    return std::nullopt;
  }
  auto doc = core::readJsonFile(path.toStdString());
  if (!doc) {
    emit errorReported(QString::fromStdString(doc.error().message));
    return std::nullopt;
  }
  return std::move(doc).value();
}

bool CharacterController::loadControls(const QVariant& location) {
  const QString path = localPath(location);
  const auto doc = readCharacterJson(path, tr("Load controls"));
  if (!doc) return false;
  if (m_scene->orl) return loadOrlControls(*doc, path);
  auto controls = core::controlsFromJson(m_scene->pack->headExt, *doc, path.toStdString());
  if (controls) {
    if (auto applied = applyHeadExt(*controls); !applied) controls = applied.error();
  }
  if (!controls) {
    const QString message = QString::fromStdString(controls.error().message);
    emit errorReported(message.startsWith(path) ? message : path + ": " + message);
    return false;
  }
  emit errorCleared();
  emit statusReported(tr("Loaded the controls from %1").arg(path));
  return true;
}

// An ORL controls file: its mode (GUI or raw) becomes the panel's, its values the sliders'.
bool CharacterController::loadOrlControls(const nlohmann::json& doc, const QString& path) {
  auto controls = core::orlControlsFromJson(*m_scene->orl->dna, doc, path.toStdString());
  if (!controls) {
    emit errorReported(QString::fromStdString(controls.error().message));
    return false;
  }
  m_orlMode = controls->mode == core::DnaControlMode::Raw ? OrlChannelMode::Raw : OrlChannelMode::Gui;
  rebuildChannels();
  std::copy(controls->values.begin(), controls->values.end(), m_values.begin());
  m_channels->valuesChanged();
  recompute();
  emit channelModeChanged();
  emit errorCleared();
  emit statusReported(tr("Loaded the controls from %1").arg(path));
  return true;
}

bool CharacterController::loadBodyPose(const QVariant& location) {
  const QString path = localPath(location);
  const auto doc = readCharacterJson(path, tr("Load body pose"));
  if (!doc) return false;
  auto pose = core::bodyPoseFromJson(*doc, path.toStdString());
  if (!pose) {
    emit errorReported(QString::fromStdString(pose.error().message));
    return false;
  }
  m_bodyPose = std::move(pose).value();
  emit errorCleared();
  emit statusReported(tr("Loaded the body pose from %1 (%n bone(s))", nullptr, int(m_bodyPose.bones.size())).arg(path));
  requestDecode();  // the root moved: the decoders see the camera from it
  emit controlsChanged();
  return true;
}

void CharacterController::clearBodyPose() {
  m_bodyPose = {};
  requestDecode();
  emit controlsChanged();
}

void CharacterController::setBranchVisible(const QString& branch, bool visible) {
  const std::string name = branch.toStdString();
  const auto it = std::find(m_hiddenBranches.begin(), m_hiddenBranches.end(), name);
  if (visible == (it == m_hiddenBranches.end())) return;
  if (visible)
    m_hiddenBranches.erase(it);
  else
    m_hiddenBranches.push_back(name);
  emit controlsChanged();
  emit decodeStatsChanged();  // the panel's check boxes read it back
}

bool CharacterController::branchVisible(const QString& branch) const {
  return std::find(m_hiddenBranches.begin(), m_hiddenBranches.end(), branch.toStdString()) == m_hiddenBranches.end();
}

}  // namespace riglens::app
