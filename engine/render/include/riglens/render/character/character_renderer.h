// CharacterRenderer: a splat character drawn the way the seed's live
// preview does it, one submission per frame and no vertex through the CPU:
// the rig pass (GpuGnm for a GNM pack, GpuOrl for an ORL character: posed
// vertices) -> GpuLift (one gaussian per vertex, reading the rig pass's
// buffer) -> SplatRenderer (projection, radix sort, quads, reading the lift's
// sink), all recorded into the frame's command buffer. The rig and lift
// passes run only on frames whose controls, joints or look changed; the
// projection and sort only when the gaussians or the view changed.
//
// Used by the app's viewport (WindowRenderer), `riglens-cli render` and the
// render tests. Needs compute shaders: without them prepare() fails and
// error() says so (the app disables its character features with that text).
#pragma once

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/render/character/character_splats.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/splats/splat_policy.h"

namespace riglens::render {

class SplatRenderer;

// One frame's inputs; compared with the last one to skip unchanged passes.
struct CharacterFrame {
  // The rig's controls (fewer: the rest are 0; empty: neutral): a GNM pack's
  // head_ext, or an ORL character's DNA GUI controls (raw controls when
  // rawControls), in the DNA's order.
  std::vector<float> controls;
  bool rawControls = false;
  std::vector<std::pair<std::string, glm::dquat>> jointOverrides;  // (joint, local rotation on top of rest); GNM only
  CharacterLook look;
  glm::vec3 rootPosition{0.0f};             // a body pose's rootPos: moves the whole character (scene metres)
  bool preview = false;                     // with a decoded layout: draw the debug preview instead
  std::vector<std::string> hiddenBranches;  // decoded branches not drawn
  bool awaitDecode = false;  // a decoded character is coming: draw nothing until its first decode is lifted
  bool operator==(const CharacterFrame&) const = default;
};

// A bundle's decoded character as the renderer needs it: the branches' lift
// specs (meshes in `bundle`, which holds the GNM pack) and the sink size.
struct DecodedLayout {
  std::shared_ptr<const core::Bundle> bundle;
  std::vector<core::BranchLiftSpec> branches;
  std::uint32_t capacity = 0;
  core::Bounds bounds;  // where the decoded gaussians lie (core::decodedBounds): culls the frames that miss them
};

struct CharacterMemory {
  std::size_t packBytes = 0;  // the .aosrig (or ORL pack) bytes held on the CPU
  BufferList buffers;         // GPU, every buffer of the three passes
  BufferList cpuArrays;       // the CPU route's lift arrays (a decoded character's texels and sink)
  struct Branch {
    std::string name;
    std::uint32_t slotOffset = 0, slotsUsed = 0, capacity = 0;
  };
  std::vector<Branch> branches;  // slots of the splat sink per branch
  std::size_t gpuBytes() const { return totalBytes(buffers); }
};

class CharacterRenderer : public FrameDrawable {
 public:
  explicit CharacterRenderer(RhiDevice& device);
  ~CharacterRenderer() override;

  // The GPU passes are (re)built on the next prepare(); nullptr draws nothing.
  // A GNM pack or an ORL character: setting one drops the other.
  void setPack(std::shared_ptr<const core::AosRigPack> pack);
  void setOrlCharacter(std::shared_ptr<const core::OrlCharacter> character);
  // The decoded character (with setPack: the bundle's GNM pack; null: none).
  // Once decodes arrive, frames draw the decoded gaussians unless
  // CharacterFrame::preview; a decode's rig vector poses the mesh the lift
  // reads, so what is drawn always belongs to one decode (no tearing between
  // branches, nor between the rig and its decoders' outputs).
  void setDecodedLayout(std::shared_ptr<const DecodedLayout> layout);
  // A finished decode (from any thread's DecodedCharacter, copied out): the
  // next prepare() uploads it and runs the lift passes it needs.
  void setDecodedOutputs(std::shared_ptr<const core::DecodedOutputs> outputs);
  void setFrame(CharacterFrame frame);
  // Owner-supplied bounds of the lifted face (e.g. the fitted rest bounds,
  // core::characterRestBounds): frames that cannot see it skip every pass
  // but the rig's.
  void setBoundingSphere(glm::vec3 centre, float radius);

  bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
               const FrameState& state) override;
  void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) override;
  bool writesTarget() const override;
  bool writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) override;

  const std::string& error() const;  // why the last prepare() failed; empty when it did not
  std::string failure() const override { return error(); }
  bool wantsAnotherFrame() const override;
  std::size_t posedFrames() const;         // frames that ran the GNM + lift passes
  std::size_t liftedDecodes() const;       // decodes uploaded and lifted
  bool showingDecoded() const;             // the last frame drew the decoded gaussians
  std::size_t sortedFrames() const;        // frames that ran the projection + sort
  std::size_t culledFrames() const;        // frames whose view missed the bounding sphere
  std::size_t activeCoefficients() const;  // non-zero coefficients (GNM) or channel weights (ORL) of the last rig pass
  // ORL: the last frame's joint outputs (J*9) and channel weights; empty otherwise.
  std::span<const float> orlJointOutputs() const;
  CharacterMemory memory() const;
  // Benchmarks only: cut frames after a pass (see SplatPasses).
  void setPasses(SplatPasses passes);
  void setRaster(SplatRaster raster);          // how the splats reach the pixels (the device's default until set)
  void setGnmRoute(GnmRoute route);            // where GNM runs (the device's default until set; rebuilds)
  const SplatRenderer* splatRenderer() const;  // null before the first frame

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
