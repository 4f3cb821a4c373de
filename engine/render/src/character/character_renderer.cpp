#include "riglens/render/character/character_renderer.h"

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <optional>

#include "riglens/core/character/gnm.h"
#include "riglens/core/character/orl_bundle_rig.h"
#include "riglens/core/character/slot_allocator.h"
#include "riglens/core/decoded/decoded_lift_cpu.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/character/gpu_decoded_lift.h"
#include "riglens/render/character/gpu_lift.h"
#include "riglens/render/character/gpu_orl.h"
#include "riglens/render/splats/splat_renderer.h"

namespace riglens::render {

struct CharacterRenderer::Impl {
  RhiDevice& device;
  explicit Impl(RhiDevice& d) : device(d) {}

  std::shared_ptr<const core::AosRigPack> pack;
  std::shared_ptr<const core::OrlCharacter> orlCharacter;
  bool packPending = false;
  CharacterFrame frame;
  bool framePending = true;
  std::optional<CharacterTint> tint;  // whose colours are on the GPU
  core::FitTransform fit;             // the pack's framing, computed once

  // Built per pack; destroyed in reverse (the splats read the lift's sink,
  // the lift reads the GNM pass's posed buffer).
  std::unique_ptr<GpuGnm> gnm;
  std::unique_ptr<GpuOrl> orl;
  std::unique_ptr<GpuLift> lift;
  std::unique_ptr<GpuDecodedLift> decodedLift;
  std::unique_ptr<core::DecodedLiftCpu> decodedCpu;  // the CPU route's, in place of decodedLift
  std::unique_ptr<core::OrlBundleRig> bundleRig;     // an ORL bundle's control order -> the DNA
  std::shared_ptr<const DecodedLayout> layout;
  std::shared_ptr<const core::DecodedOutputs> outputs;  // waiting for the next prepare()
  bool outputsPending = false;
  bool decodedShown = false, decodedLifted = false;
  std::vector<float> decodedRig;  // the rig of the decode on the GPU
  std::vector<std::pair<std::string, glm::dquat>> liftedJoints;
  std::uint64_t liftedGeometry = 0;
  glm::vec3 liftedRoot{0.0f};
  std::vector<std::string> liftedHidden;
  std::size_t liftedDecodes = 0;
  std::unique_ptr<SplatRenderer> splats;
  std::unique_ptr<core::GnmJointState> joints;
  core::SlotAllocator sinkSlots{0};
  std::uint32_t headSlot = 0;

  std::string error;
  std::size_t posedFrames = 0;
  bool ready = false;
  SplatPasses passes;
  std::optional<SplatRaster> raster;  // the device's default until set
  std::optional<GnmRoute> gnmRoute;   // the device's default until set
  std::optional<glm::vec4> sphere;
  // The CPU route (GNM on the CPU, splats drawn by the CPU's rasteriser):
  // the lift runs on the CPU too and nothing of the face goes to the GPU.
  std::vector<std::uint32_t> cpuTints;
  std::shared_ptr<core::SplatSink> cpuSink;

  bool drawsOnCpu() const {
    return gnmRoute.value_or(defaultGnmRoute(device)) == GnmRoute::Cpu &&
           raster.value_or(defaultSplatRaster(device)) == SplatRaster::Cpu;
  }

  void reset() {
    splats.reset();
    decodedLift.reset();
    decodedCpu.reset();
    bundleRig.reset();
    lift.reset();
    orl.reset();
    gnm.reset();
    joints.reset();
    tint.reset();
    cpuSink.reset();
  }

  bool fail(std::string message) {
    error = std::move(message);
    ready = false;
    return false;
  }

  // The rig pass of the open character (GNM or ORL), and what it is framed by.
  bool buildRig() {
    const GnmRoute route = gnmRoute.value_or(defaultGnmRoute(device));
    if (orlCharacter) {
      auto o = GpuOrl::create(device, *orlCharacter, route);
      if (!o) return fail(o.error().message);
      orl = std::move(o).value();
      fit = characterFit(*orlCharacter->pack);
      return true;
    }
    auto g = GpuGnm::create(device, *pack, route);
    if (!g) return fail(g.error().message);
    gnm = std::move(g).value();
    joints = std::make_unique<core::GnmJointState>(*pack);
    fit = characterFit(*pack);
    return true;
  }
  bool hasRig() const { return gnm || orl; }
  std::size_t rigVertices() const { return orl ? orl->vertexCount() : gnm->vertexCount(); }
  QRhiBuffer* rigPosed() const { return orl ? orl->posedBuffer() : gnm->posedBuffer(); }
  std::span<const float> rigCpuPosed() const { return orl ? orl->cpuPosed() : gnm->cpuPosed(); }
  void encodeRig(QRhiCommandBuffer* cb) { orl ? orl->encode(cb) : gnm->encode(cb); }
  core::Expected<void> stageRig() {
    if (orl)
      return orl->setControls(frame.controls,
                              frame.rawControls ? core::DnaControlMode::Raw : core::DnaControlMode::Gui);
    joints->setJointOverrides(frame.jointOverrides);
    return gnm->setControls(frame.controls, *joints);
  }
  core::Expected<std::vector<std::uint32_t>> rigTints(CharacterTint t) const {
    return orl ? characterTints(*orlCharacter->pack, t) : characterTints(*pack, t);
  }

  bool build() {
    reset();
    if (!pack && !orlCharacter) return true;
    if (!buildRig()) return false;
    // The sink holds the head branch; a preview character has only that one.
    const auto V = std::uint32_t(rigVertices());
    sinkSlots = core::SlotAllocator(V);
    auto slot = sinkSlots.allocate(V);
    if (!slot) return fail(slot.error().message);
    headSlot = *slot;
    auto l = GpuLift::create(device, V, core::SplatSink(V), rigPosed());
    if (!l) return fail(l.error().message);
    lift = std::move(l).value();
    splats = std::make_unique<SplatRenderer>(device);
    splats->setSink(lift->sink());
    splats->setPasses(passes);
    if (raster) splats->setRaster(*raster);
    if (sphere) splats->setBoundingSphere(glm::vec3(*sphere), sphere->w);
    framePending = true;
    decodedShown = decodedLifted = false;
    liftedGeometry = 0;
    liftedRoot = glm::vec3(0.0f);
    liftedHidden.clear();
    if (layout) return buildDecoded();
    return true;
  }

  // The decoded lift over the rig's posed buffer; an ORL bundle also gets the
  // rig that carries its control order to the DNA.
  bool buildDecoded() {
    if (orl) {
      if (!layout->bundle->orl) return fail("the decoded layout's bundle has no ORL rig");
      auto rig = core::OrlBundleRig::create(layout->bundle->orl, layout->bundle->orlControls);
      if (!rig) return fail(rig.error().message);
      bundleRig = std::move(rig).value();
    }
    outputsPending = outputs != nullptr;
    if (drawsOnCpu()) {
      decodedCpu = std::make_unique<core::DecodedLiftCpu>(layout->branches, layout->capacity);
      return true;
    }
    auto d =
        GpuDecodedLift::create(device, layout->bundle, layout->branches, layout->capacity, rigVertices(), rigPosed());
    if (!d) return fail(d.error().message);
    decodedLift = std::move(d).value();
    return true;
  }
  bool hasDecodedLift() const { return decodedLift || decodedCpu; }
  void setDecodedPlacement() {
    if (decodedCpu) {
      decodedCpu->setRootOffset(frame.rootPosition);
      decodedCpu->setHiddenBranches(frame.hiddenBranches);
    } else {
      decodedLift->setRootOffset(frame.rootPosition);
      decodedLift->setHiddenBranches(frame.hiddenBranches);
    }
  }
  // The staged lift run: on the CPU into its sink, else recorded into `cb`
  // after the rig's pass when the rig was posed anew.
  void runDecodedLift(QRhiCommandBuffer* cb, bool posed) {
    if (decodedCpu) return decodedCpu->run(rigCpuPosed());
    if (posed) encodeRig(cb);
    decodedLift->encode(cb);
  }

  // The rig posed by a decode's rig vector (GNM: with the body's joint
  // overrides; ORL: through the bundle's control map, shells moved by their joints).
  core::Expected<void> stageDecodedRig(const std::vector<float>& rig) {
    if (!orl) {
      joints->setJointOverrides(frame.jointOverrides);
      return gnm->setControls(rig, *joints);
    }
    if (auto ok = bundleRig->evaluate(rig); !ok) return ok;
    if (auto ok = orl->setOutputs(bundleRig->jointOutputs(), bundleRig->channelWeights()); !ok) return ok;
    for (std::size_t i = 0; i < layout->branches.size(); ++i)
      if (const auto& shell = layout->branches[i].shell)
        if (auto ok = setShellVertices(i, core::poseOrlShell(*orlCharacter->pack, *shell, bundleRig->jointOutputs()));
            !ok)
          return ok;
    return {};
  }

  core::Expected<void> setShellVertices(std::size_t branch, std::span<const float> vertices) {
    return decodedCpu ? decodedCpu->setBranchVertices(branch, vertices)
                      : decodedLift->setBranchVertices(branch, vertices);
  }

  // The decoded path: a new decode poses the rig with the decode's own rig
  // vector and uploads its outputs; new joint overrides (a body pose) re-pose
  // the same rig and re-run the lift without decoding (the decoders' inputs
  // did not change). Frames in between draw the last lifted sink.
  bool liftDecoded(QRhiCommandBuffer* cb) {
    const bool fresh = outputsPending && outputs;
    const bool jointsMoved = decodedLifted && frame.jointOverrides != liftedJoints;
    const bool rootMoved = decodedLifted && frame.rootPosition != liftedRoot;
    const bool visibilityChanged = decodedLifted && frame.hiddenBranches != liftedHidden;
    if (!fresh && !jointsMoved && !rootMoved && !visibilityChanged) return true;
    outputsPending = false;
    core::DecodedOutputs unchanged;  // no new maps: the lift keeps its own
    unchanged.geom.resize(layout->branches.size());
    unchanged.color.resize(layout->branches.size());
    const core::DecodedOutputs& out = fresh ? *outputs : unchanged;
    const std::vector<float>& rig = fresh ? outputs->rig : decodedRig;
    const bool posed = jointsMoved || (fresh && (outputs->geometryId != liftedGeometry || !decodedLifted));
    if (posed)
      if (auto staged = stageDecodedRig(rig); !staged) return fail(staged.error().message);
    setDecodedPlacement();
    liftedRoot = frame.rootPosition;
    liftedHidden = frame.hiddenBranches;
    auto staged = decodedCpu ? decodedCpu->setOutputs(out, posed) : decodedLift->setOutputs(out, posed);
    if (!staged) return fail(staged.error().message);
    if (passes.rig) runDecodedLift(cb, posed);
    if (fresh) {
      decodedRig = outputs->rig;
      liftedGeometry = outputs->geometryId;
    }
    liftedJoints = frame.jointOverrides;
    decodedLifted = true;
    framePending = true;  // the preview, when shown again, re-poses its own controls
    ++liftedDecodes;
    splats->markGaussiansChanged();
    return true;
  }

  // The culling sphere: the decoded gaussians' bounds or the owner's, moved with the body's root.
  void placeSphere() {
    std::optional<glm::vec4> s = sphere;
    if (decodedShown && layout && !layout->bounds.empty)
      s = glm::vec4(layout->bounds.center(), layout->bounds.radius());
    if (s) splats->setBoundingSphere(glm::vec3(*s) + frame.rootPosition, s->w);
  }

  // Which sink the splats read: the decoded one once a decode has been lifted.
  void chooseSink() {
    const bool decoded = hasDecodedLift() && decodedLifted && !frame.preview;
    if (decoded == decodedShown) return;
    decodedShown = decoded;
    if (decoded && decodedCpu)
      splats->setCpuSink(decodedCpu->sink());  // the CPU rasteriser reads it; it is rewritten in place on this thread
    else
      splats->setSink(decoded ? decodedLift->sink() : lift->sink());
    splats->markGaussiansChanged();
    if (!decoded) framePending = true;  // the preview lifts the current controls
  }

  // GNM then the lift, into `cb`, when the frame changed.
  bool pose(QRhiCommandBuffer* cb) {
    if (!framePending) return true;
    if (auto staged = stageRig(); !staged) return fail(staged.error().message);
    const std::size_t V = rigVertices();
    auto params = characterLiftParams(V, fit, frame.look);
    if (!params) return fail(params.error().message);
    params->slotOffset = headSlot;
    for (int r = 0; r < 3; ++r) params->affine[std::size_t(r * 4 + 3)] += frame.rootPosition[r];  // the body's rootPos
    params->centroid += frame.rootPosition;
    // The per-vertex colours only when the tint changed (the height tint
    // costs a CPU rest pose); sigma, opacity and the pose need only the uniform.
    std::vector<std::uint32_t> tints;
    if (tint != frame.look.tint) {
      auto computed = rigTints(frame.look.tint);
      if (!computed) return fail(computed.error().message);
      tints = std::move(computed).value();
    }
    if (drawsOnCpu()) {
      if (!tints.empty()) cpuTints = tints;
      tint = frame.look.tint;
      // Rewritten in place: the splat renderer reads it only inside prepare(), on this thread.
      if (!cpuSink || cpuSink->capacity() != V) cpuSink = std::make_shared<core::SplatSink>(V);
      if (passes.rig) core::debugLiftCpu(*params, rigCpuPosed(), cpuTints, *cpuSink);
      splats->setCpuSink(cpuSink);
    } else {
      if (auto staged = lift->setFrame(*params, {}, tints); !staged) return fail(staged.error().message);
      tint = frame.look.tint;
      if (passes.rig) {
        encodeRig(cb);
        lift->encode(cb);
      }
      splats->markGaussiansChanged();
    }
    framePending = false;
    ++posedFrames;
    return true;
  }
};

CharacterRenderer::CharacterRenderer(RhiDevice& device) : m_impl(std::make_unique<Impl>(device)) {}
CharacterRenderer::~CharacterRenderer() {
  m_impl->reset();
}

void CharacterRenderer::setPack(std::shared_ptr<const core::AosRigPack> pack) {
  m_impl->pack = std::move(pack);
  m_impl->orlCharacter.reset();
  m_impl->packPending = true;
}

void CharacterRenderer::setOrlCharacter(std::shared_ptr<const core::OrlCharacter> character) {
  m_impl->orlCharacter = std::move(character);
  m_impl->pack.reset();
  m_impl->packPending = true;
}

void CharacterRenderer::setDecodedLayout(std::shared_ptr<const DecodedLayout> layout) {
  m_impl->layout = std::move(layout);
  m_impl->outputs.reset();
  m_impl->packPending = true;
}

void CharacterRenderer::setDecodedOutputs(std::shared_ptr<const core::DecodedOutputs> outputs) {
  m_impl->outputs = std::move(outputs);
  m_impl->outputsPending = m_impl->outputs != nullptr;
}

std::size_t CharacterRenderer::liftedDecodes() const {
  return m_impl->liftedDecodes;
}
bool CharacterRenderer::showingDecoded() const {
  return m_impl->decodedShown;
}

void CharacterRenderer::setFrame(CharacterFrame frame) {
  if (frame == m_impl->frame) return;
  m_impl->frame = std::move(frame);
  m_impl->framePending = true;
}

bool CharacterRenderer::prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* rp, int sampleCount, QSize size,
                                const FrameState& state) {
  Impl& d = *m_impl;
  d.ready = false;
  if (d.packPending) {
    d.packPending = false;
    d.error.clear();
    if (!d.build()) return false;
    // The passes' creation uploads land in this frame, whichever of them it encodes.
    if (d.gnm) d.gnm->flushUploads(cb);
    if (d.orl) d.orl->flushUploads(cb);
    if (d.lift) d.lift->flushUploads(cb);
    if (d.decodedLift) d.decodedLift->flushUploads(cb);
  }
  if (!d.hasRig()) return d.error.empty();  // no character: nothing to draw
  if (d.hasDecodedLift() && !d.liftDecoded(cb)) return false;
  d.chooseSink();
  if (d.frame.awaitDecode && !d.frame.preview && !d.decodedShown) return d.error.empty();  // nothing to show yet
  d.placeSphere();
  if (!d.decodedShown && !d.pose(cb)) return false;
  if (!d.splats->prepare(cb, rp, sampleCount, size, state)) {
    const std::string why = d.splats->failure();
    return d.fail(why.empty() ? "the splat renderer could not prepare the frame" : why);
  }
  d.error.clear();
  d.ready = true;
  return true;
}

void CharacterRenderer::record(QRhiCommandBuffer* cb, QRect viewport, QSize target) {
  if (m_impl->ready) m_impl->splats->record(cb, viewport, target);
}

bool CharacterRenderer::writesTarget() const {
  return m_impl->ready && m_impl->splats->writesTarget();
}

bool CharacterRenderer::writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) {
  return m_impl->splats->writeTarget(cb, target, background);
}

const std::string& CharacterRenderer::error() const {
  return m_impl->error;
}
std::size_t CharacterRenderer::posedFrames() const {
  return m_impl->posedFrames;
}
std::size_t CharacterRenderer::sortedFrames() const {
  return m_impl->splats ? m_impl->splats->sortedFrames() : 0;
}
std::size_t CharacterRenderer::activeCoefficients() const {
  if (m_impl->orl) {
    const auto w = m_impl->orl->channelWeights();
    return std::size_t(std::count_if(w.begin(), w.end(), [](float x) { return x != 0.0f; }));
  }
  return m_impl->gnm ? m_impl->gnm->activeCount() : 0;
}

std::span<const float> CharacterRenderer::orlJointOutputs() const {
  return m_impl->orl ? m_impl->orl->jointOutputs() : std::span<const float>();
}

void CharacterRenderer::setBoundingSphere(glm::vec3 centre, float radius) {
  m_impl->sphere = glm::vec4(centre, radius);
  if (m_impl->splats) m_impl->splats->setBoundingSphere(centre, radius);
}

std::size_t CharacterRenderer::culledFrames() const {
  return m_impl->splats ? m_impl->splats->culledFrames() : 0;
}

void CharacterRenderer::setPasses(SplatPasses passes) {
  m_impl->passes = passes;
  if (m_impl->splats) m_impl->splats->setPasses(passes);
}

const SplatRenderer* CharacterRenderer::splatRenderer() const {
  return m_impl->splats.get();
}

bool CharacterRenderer::wantsAnotherFrame() const {
  return m_impl->splats && m_impl->splats->wantsAnotherFrame();
}

void CharacterRenderer::setGnmRoute(GnmRoute route) {
  if (m_impl->gnmRoute == route) return;
  m_impl->gnmRoute = route;
  m_impl->packPending = true;  // the GNM pass is built per pack
}

void CharacterRenderer::setRaster(SplatRaster raster) {
  m_impl->raster = raster;
  if (m_impl->splats) m_impl->splats->setRaster(raster);
  // The lift may move between the CPU and the GPU: the next frame lifts again, tints included.
  m_impl->tint.reset();
  m_impl->framePending = true;
}

CharacterMemory CharacterRenderer::memory() const {
  const Impl& d = *m_impl;
  CharacterMemory memory;
  if (d.pack && d.pack->bytes) memory.packBytes = d.pack->bytes->size();
  if (d.orlCharacter) memory.packBytes = d.orlCharacter->packBytes;
  if (d.gnm)
    for (auto& b : d.gnm->buffers()) memory.buffers.push_back(std::move(b));
  if (d.orl)
    for (auto& b : d.orl->buffers()) memory.buffers.push_back(std::move(b));
  if (d.lift)
    for (auto& b : d.lift->buffers()) memory.buffers.push_back(std::move(b));
  if (d.decodedLift)
    for (auto& b : d.decodedLift->buffers()) memory.buffers.push_back(std::move(b));
  if (d.decodedCpu)
    for (auto& a : d.decodedCpu->arrays()) memory.cpuArrays.push_back({std::move(a.name), a.bytes});
  if (d.splats)
    for (auto& b : d.splats->buffers()) memory.buffers.push_back(std::move(b));
  if (d.decodedShown && d.layout) {
    for (const auto& b : d.layout->branches)
      memory.branches.push_back({b.name, b.placement.slotOffset, b.placement.slotCount, d.layout->capacity});
  } else if (d.lift) {
    memory.branches.push_back({"head", d.headSlot, std::uint32_t(d.rigVertices()), std::uint32_t(d.lift->capacity())});
  }
  return memory;
}

}  // namespace riglens::render
