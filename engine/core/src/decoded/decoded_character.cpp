#include "riglens/core/decoded/decoded_character.h"

#include <algorithm>

#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/character/orl_bundle_rig.h"
#include "riglens/core/character/slot_allocator.h"
#include "riglens/core/decoded/npy.h"

namespace riglens::core {
namespace {

// A4: row 0 of the branch's rig_presets, when it is a float32 table with
// rig_dim columns; otherwise the zero vector, with a note.
std::vector<float> referenceRigOf(const Bundle& bundle, const DecoderBranch& branch, Diagnostics& notes) {
  std::vector<float> zero(std::size_t(branch.rigDim), 0.0f);
  if (branch.rigPresets.empty()) return zero;
  const auto path = bundle.folder / branch.rigPresets;
  auto table = readNpyTable(path);
  if (!table) {
    notes.push_back({path.string(), "", table.error().message + "; the neutral rig is the zero vector"});
    return zero;
  }
  if (table->cols != std::size_t(branch.rigDim)) {
    notes.push_back({path.string(), "",
                     "has " + std::to_string(table->cols) + " columns, the branch's rig_dim is " +
                         std::to_string(branch.rigDim) + "; the neutral rig is the zero vector"});
    return zero;
  }
  return table->row0;
}

}  // namespace

const char* decodePassName(DecodePass pass) {
  switch (pass) {
    case DecodePass::None: return "none";
    case DecodePass::Appearance: return "appearance";
    case DecodePass::Full: return "full";
  }
  return "?";
}

Expected<RigCpuPose> poseRigCpu(const Bundle& bundle, std::span<const float> rig) {
  RigCpuPose pose;
  if (bundle.gnmPack) {
    auto posed = gnmPose(*bundle.gnmPack, rig);
    if (!posed) return posed.error();
    pose.vertices = std::move(posed).value();
  } else if (bundle.orl) {
    auto orl = OrlBundleRig::create(bundle.orl, bundle.orlControls);
    if (!orl) return orl.error();
    auto posed = (*orl)->deformCpu(rig);
    if (!posed) return posed.error();
    pose.vertices = std::move(posed).value();
    pose.jointOutputs.assign((*orl)->jointOutputs().begin(), (*orl)->jointOutputs().end());
  }
  return pose;
}

Expected<std::vector<float>> readRigVector(const Bundle& bundle, const std::filesystem::path& file) {
  auto doc = readJsonFile(file);
  if (!doc) return doc.error();
  if (bundle.gnmPack) return controlsFromJson(bundle.gnmPack->headExt, *doc, file.string());
  if (!bundle.orl) return errorAt(ErrorCode::Unsupported, bundle.folder.string(), "/rig", "the bundle has no rig");
  auto orl = OrlBundleRig::create(bundle.orl, bundle.orlControls);
  if (!orl) return orl.error();
  return (*orl)->rigVectorFromJson(*doc, file.string());
}

std::size_t rigVectorSize(const Bundle& bundle) {
  if (bundle.gnmPack) return std::size_t(bundle.gnmPack->headExt.dim);
  return bundle.orl ? bundle.orlControls.dnaIndex.size() : 0;
}

// A10 for one branch: the rig's output at the reference rig fitted onto the mesh's neutral.
void DecodedCharacter::calibrateBranch(DecodedBranch& b, const RigCpuPose& reference, const std::string& source,
                                       Diagnostics& notes) {
  const std::string& name = b.decoders.spec().name;
  const std::string where = "/branches/" + name;
  const bool orl = m_bundle->orl != nullptr;
  const OrlDriveMode mode = orl ? orlDriveMode(b.mesh->vertexCount) : OrlDriveMode::Skin;
  if (reference.vertices.empty() || mode == OrlDriveMode::None) {
    notes.push_back({source, where, name + ": no rig drives it; the mesh's neutral is lifted", Severity::Info});
    return;
  }
  if (mode == OrlDriveMode::Shell && name != "head") {
    if (!m_baseFrame) {
      notes.push_back(
          {source, where, name + ": a shell branch, but no rigged branch lends it a frame; its neutral is lifted"});
      return;
    }
    auto shell =
        std::make_shared<OrlShell>(bindOrlShell(*m_bundle->orl->pack, b.mesh->neutral, b.mesh->faces, *m_baseFrame));
    if (shell->boundVertices() == 0) {
      notes.push_back({source, where,
                       name + ": no piece lies within 4 cm of an eye or teeth joint; its neutral is lifted",
                       Severity::Info});
      return;
    }
    auto fit = calibrate(poseOrlShell(*m_bundle->orl->pack, *shell, reference.jointOutputs), b.mesh->neutral);
    if (!fit) {
      notes.push_back({source, where, name + ": " + fit.error().message + "; the rig is dropped"});
      return;
    }
    b.calibration = std::move(fit).value();  // the residual verdict is waived for a shell (A10)
    b.shell = std::move(shell);
    b.rigged = true;
    notes.push_back({source, where,
                     name + ": shell, " + std::to_string(b.shell->boundVertices()) + " of " +
                         std::to_string(b.mesh->vertexCount) + " vertices bound rigidly; calibration " +
                         b.calibration.describe(),
                     Severity::Info});
    return;
  }
  if (reference.vertices.size() != b.mesh->neutral.size()) {
    notes.push_back({source, where,
                     name + ": the rig deforms " + std::to_string(reference.vertices.size() / 3) +
                         " vertices, the branch mesh has " + std::to_string(b.mesh->vertexCount) +
                         "; the rig is dropped and the branch renders its neutral"});
  } else if (auto fit = calibrate(reference.vertices, b.mesh->neutral); !fit) {
    notes.push_back({source, where, name + ": " + fit.error().message + "; the rig is dropped"});
  } else if (!fit->accepted()) {
    notes.push_back(
        {source, where, name + ": calibration " + fit->describe() + " is past the limit; the rig is dropped"});
  } else {
    b.calibration = std::move(fit).value();
    b.rigged = true;
    if (!m_baseFrame) m_baseFrame = VertexTransform{b.calibration.transform.L, b.calibration.transform.o, {}};
    notes.push_back({source, where, name + ": calibration " + b.calibration.describe(), Severity::Info});
  }
}

Expected<std::unique_ptr<DecodedCharacter>> DecodedCharacter::open(std::shared_ptr<const Bundle> bundle,
                                                                   const DecoderOpener& opener, DecodedOptions options,
                                                                   Diagnostics& notes) {
  std::unique_ptr<DecodedCharacter> c(new DecodedCharacter);
  c->m_bundle = bundle;
  const std::string source = (bundle->folder / (bundle->schema == 1 ? "mesh.json" : "scene.json")).string();
  if (bundle->decoders.empty())
    return errorAt(ErrorCode::Invalid, source, "/branches", "declares no mesh branch with decoders");
  const auto head = std::find_if(bundle->decoders.begin(), bundle->decoders.end(),
                                 [](const DecoderBranch& b) { return b.name == "head"; });
  const DecoderBranch& first = head != bundle->decoders.end() ? *head : bundle->decoders.front();
  c->m_referenceRig = referenceRigOf(*bundle, first, notes);
  if (const std::size_t dim = rigVectorSize(*bundle)) c->m_referenceRig.resize(dim, 0.0f);
  auto reference = poseRigCpu(*bundle, c->m_referenceRig);  // the rig's own deform of the reference rig (A10)
  if (!reference) return reference.error();
  const bool anyFp16 = std::any_of(bundle->decoders.begin(), bundle->decoders.end(),
                                   [](const DecoderBranch& b) { return !b.geomFp16.empty() || !b.apprFp16.empty(); });
  const bool preferFp16 = options.preferFp16 && anyFp16;

  std::uint32_t slots = 0;
  for (const auto& spec : bundle->decoders) slots += std::uint32_t(spec.uvRes) * std::uint32_t(spec.uvRes);
  SlotAllocator allocator(slots);
  c->m_placement.rotation =
      worldRotationQuaternion(bundle->worldRotationDeg.x, bundle->worldRotationDeg.y, bundle->worldRotationDeg.z);
  c->m_placement.offset = glm::vec3(bundle->worldOffset);
  c->m_placement.scale = float(bundle->worldScale);
  c->m_placement.momentScale = float(bundle->momentScale);

  std::vector<std::size_t> shells;  // calibrated after the others: they adopt the first rigged branch's frame
  for (const auto& spec : bundle->decoders) {
    const BranchMesh* mesh = bundle->mesh(spec.name);
    if (!mesh || !mesh->hasUvMaps() || mesh->uvRes != spec.uvRes) {
      notes.push_back({source, "/branches/" + spec.name,
                       spec.name + ": its mesh has no UV maps at uv_res " + std::to_string(spec.uvRes) +
                           " (idxim, barim, triim, valid); the branch is not decoded",
                       Severity::Error});
      continue;
    }
    auto decoders = BranchDecoders::open(*bundle, spec, opener, preferFp16, notes);
    if (!decoders) return decoders.error();
    DecodedBranch b{std::move(decoders).value(), mesh, {}, false, {}, nullptr};
    const auto slot = allocator.allocate(std::uint32_t(spec.uvRes) * std::uint32_t(spec.uvRes));
    if (!slot) return slot.error();
    b.placement = {*slot, std::uint32_t(spec.uvRes) * std::uint32_t(spec.uvRes), c->m_placement.rotation,
                   c->m_placement.offset, c->m_placement.scale};
    const bool shell = bundle->orl && spec.name != "head" && orlDriveMode(mesh->vertexCount) == OrlDriveMode::Shell;
    if (shell)
      shells.push_back(c->m_branches.size());
    else
      c->calibrateBranch(b, *reference, source, notes);
    c->m_branches.push_back(std::move(b));
  }
  for (std::size_t i : shells) c->calibrateBranch(c->m_branches[i], *reference, source, notes);
  if (c->m_branches.empty())
    return errorAt(ErrorCode::Invalid, source, "/branches", "no decoded branch has a mesh with UV maps");
  c->m_capacity = slots;
  return c;
}

Expected<DecodePass> DecodedCharacter::decode(std::span<const float> rig, const PluckerCamera& camera) {
  const bool rigChanged = !m_decoded || !std::equal(rig.begin(), rig.end(), m_lastRig.begin(), m_lastRig.end());
  const DecodePass pass = rigChanged                          ? DecodePass::Full
                          : cameraMoved(m_lastCamera, camera) ? DecodePass::Appearance
                                                              : DecodePass::None;
  if (pass == DecodePass::None) return pass;
  for (auto& b : m_branches) {
    if (pass == DecodePass::Full)
      if (auto ok = b.decoders.runGeometry(rig); !ok) return ok.error();
    if (auto ok = b.decoders.runAppearance(pluckerRays(camera, m_placement, b.decoders.spec().uvRes)); !ok)
      return ok.error();
  }
  m_lastRig.assign(rig.begin(), rig.end());
  m_lastCamera = camera;
  if (pass == DecodePass::Full) ++m_geometryId;
  m_decoded = true;
  return pass;
}

std::vector<float> DecodedCharacter::liftVertices(std::size_t i, std::span<const float> rigOutput,
                                                  std::span<const float> jointOutputs) const {
  const DecodedBranch& b = m_branches[i];
  std::vector<float> v;
  if (b.rigged && b.shell && m_bundle->orl && jointOutputs.size() == m_bundle->orl->pack->jointCount * 9)
    v = poseOrlShell(*m_bundle->orl->pack, *b.shell, jointOutputs);
  else if (b.rigged && !b.shell && rigOutput.size() == b.mesh->neutral.size())
    v.assign(rigOutput.begin(), rigOutput.end());
  else
    return b.mesh->neutral;
  applyVertexTransform(v, b.calibration.transform);
  return v;
}

void DecodedCharacter::liftCpu(std::span<const float> rigOutput, SplatSink& sink,
                               std::span<const float> jointOutputs) const {
  for (std::size_t i = 0; i < m_branches.size(); ++i) {
    const DecodedBranch& b = m_branches[i];
    if (!b.decoders.hasGeometry() || b.decoders.colorUv().empty()) continue;
    const auto texels =
        liftPass1(b.decoders.geomUv(), liftVertices(i, rigOutput, jointOutputs), *b.mesh, b.decoders.spec().scale);
    liftPass2(texels, b.decoders.colorUv(), b.decoders.spec().uvRes, b.placement, nullptr, sink);
  }
}

std::vector<BranchLiftSpec> DecodedCharacter::liftSpecs() const {
  std::vector<BranchLiftSpec> out;
  for (const auto& b : m_branches)
    out.push_back({b.decoders.spec().name, b.mesh, b.decoders.spec().scale, b.placement, b.rigged,
                   b.rigged ? b.calibration.transform : VertexTransform{}, b.rigged ? b.shell : nullptr});
  return out;
}

DecodedOutputs DecodedCharacter::outputs(DecodePass pass) const {
  DecodedOutputs out;
  out.pass = pass;
  out.rig = m_lastRig;
  out.geometryId = m_geometryId;
  for (const auto& b : m_branches) {
    out.geom.push_back(pass == DecodePass::Full ? std::make_shared<const std::vector<float>>(b.decoders.geomUv())
                                                : nullptr);
    out.color.push_back(pass == DecodePass::None ? nullptr
                                                 : std::make_shared<const std::vector<float>>(b.decoders.colorUv()));
    out.runs.push_back(b.decoders.runs());
  }
  return out;
}

Bounds decodedBounds(const Bundle& bundle) {
  Bounds b;
  const glm::vec3 offset(bundle.worldOffset);
  for (const auto& spec : bundle.decoders) {
    const BranchMesh* mesh = bundle.mesh(spec.name);
    if (!mesh) continue;
    for (std::size_t i = 0; i + 2 < mesh->neutral.size(); i += 3)
      b.include(glm::vec3(mesh->neutral[i], mesh->neutral[i + 1], mesh->neutral[i + 2]) * float(bundle.worldScale) +
                offset);
  }
  return b;
}

std::uintmax_t DecodedCharacter::weightBytes() const {
  std::uintmax_t sum = 0;
  for (const auto& b : m_branches) sum += b.decoders.weightBytes();
  return sum;
}

}  // namespace riglens::core
