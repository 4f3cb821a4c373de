// The decoded lift of the CPU route (a device without a GPU: the rig posed,
// the lift run and the splats drawn by the CPU, nothing of the face on the
// GPU): GpuDecodedLift's state and re-run policy over the CPU passes
// (uv_lift.h), for the viewer's CharacterRenderer. Per branch, pass 1 runs
// when its geometry or its vertices changed, pass 2 when pass 1 ran or its
// colour, placement (the body's root) or visibility changed; a hidden
// branch's slots are emptied. Opacity masks are the GPU lift's only.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/splats/splat_sink.h"

namespace riglens::core {

class DecodedLiftCpu {
 public:
  // `branches`' meshes must outlive the lift (the holder keeps their bundle).
  DecodedLiftCpu(std::vector<BranchLiftSpec> branches, std::uint32_t capacity);

  // A decode's maps (a null map keeps the branch's last); verticesChanged:
  // the rig was posed anew, so rigged branches lift again.
  Expected<void> setOutputs(const DecodedOutputs& out, bool verticesChanged);
  // An ORL shell branch's posed vertices (its own, moved by the joints).
  Expected<void> setBranchVertices(std::size_t branch, std::span<const float> vertices);
  void setRootOffset(glm::vec3 offset);
  void setHiddenBranches(const std::vector<std::string>& names);
  // Runs what is staged; `rigPosed` is the rig's posed output (V*3), which
  // rigged branches that are not shells lift.
  void run(std::span<const float> rigPosed);

  std::shared_ptr<const SplatSink> sink() const { return m_sink; }
  // What it holds on the CPU, named as the GPU lift names its buffers
  // ("<branch> lift texels", "sink centres", ...), for the Memory panel.
  struct Array {
    std::string name;
    std::size_t bytes = 0;
  };
  std::vector<Array> arrays() const;
  std::size_t pass1Runs() const { return m_pass1Runs; }
  std::size_t pass2Runs() const { return m_pass2Runs; }

 private:
  struct Branch {
    BranchLiftSpec spec;
    std::shared_ptr<const std::vector<float>> geom, color;
    std::vector<float> ownVertices;  // a shell's, once posed
    std::vector<float> texels;       // pass 1's output
    bool hidden = false, run1 = false, run2 = false;
  };
  std::vector<float> liftVertices(const Branch& b, std::span<const float> rigPosed) const;
  void restageAll();

  std::vector<Branch> m_branches;
  std::shared_ptr<SplatSink> m_sink;
  std::uint64_t m_geometryId = 0;
  glm::vec3 m_root{0.0f};
  std::size_t m_pass1Runs = 0, m_pass2Runs = 0;
};

}  // namespace riglens::core
