// RigRenderer: draws one loaded voxel run with QRhi. Owns every GPU object of
// the model: one vertex/index buffer set and one draw per part (whatever
// mesher made it), the per-part uniform slots, the GPU skinning pass of a
// skinned mesh.glb, the overlay lines (grid, axes, socket markers).
//
// Threading: construct, prepare() and record() on the thread that owns the
// device (Qt Quick's render thread in the app). setModel() hands over a
// shared, immutable run; its meshes upload once, on the next prepare().
// Poses change only uniforms (part worlds, bones): nothing is re-uploaded.
#pragma once

#include <QtCore/QRect>
#include <QtCore/QSize>
#include <memory>
#include <string>
#include <vector>

#include "riglens/core/rig/run_loader.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/frame_state.h"
#include "riglens/render/device/rhi_device.h"

class QRhiCommandBuffer;
class QRhiRenderPassDescriptor;

namespace riglens::render {

struct PartMemory {
  std::string name;
  std::size_t vertexBytes = 0;  // positions, normals, colours (+ wireframe copies when built)
  std::size_t indexBytes = 0;
  std::size_t uniformBytes = 0;  // the part's slot in the per-part uniform buffer
};

struct MemoryReport {
  std::vector<PartMemory> parts;
  std::size_t vertexBytes = 0;
  std::size_t indexBytes = 0;
  std::size_t uniformBytes = 0;  // frame + per-part uniform buffers
  std::size_t storageBytes = 0;  // skinning inputs, bones and outputs
  std::size_t textureBytes = 0;  // material textures (render targets belong to the caller)
  std::size_t overlayBytes = 0;  // grid/axes/marker lines
  std::size_t gpuBytes() const {
    return vertexBytes + indexBytes + uniformBytes + storageBytes + textureBytes + overlayBytes;
  }
  std::size_t cpuBytes = 0;  // the run's geometry held in memory
};

class RigRenderer : public FrameDrawable {
 public:
  explicit RigRenderer(RhiDevice& device);
  ~RigRenderer() override;
  RigRenderer(const RigRenderer&) = delete;
  RigRenderer& operator=(const RigRenderer&) = delete;

  void setModel(std::shared_ptr<const core::LoadedRun> run);
  const core::LoadedRun* model() const { return m_run.get(); }

  // Outside any pass: uploads, uniform updates and (skinned models) the
  // skinning compute pass. `renderPass` and `sampleCount` describe the target
  // record() will draw into; pipelines are rebuilt when they change.
  // Returns false (and logs why) when a GPU object could not be created.
  bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
               const FrameState& state) override;

  // Inside a pass on that target: one draw per part, then the overlays,
  // into `viewport` (pixels, top-left origin) of a target of `targetSize`;
  // nothing is drawn outside it.
  void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) override;
  // On a CPU device, a model of more triangles than setTrianglesPerPass
  // (2^18 unless set) is drawn in passes of whole parts of about that many
  // triangles each, the grid, overlays and blended sections in the last; on a
  // GPU, one pass. Large sample at 4x on lavapipe: peak 0.97-1.0 GB in one
  // pass, 0.68 GB in 11 (docs/benchmarks.md).
  int passesWanted() const override;
  void setTrianglesPerPass(std::size_t triangles);
  void recordPass(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize, int pass) override;

  MemoryReport memoryReport() const;
  // The model is still going to the GPU, a few parts a frame (64 MiB at
  // most): until it is all there, frames draw none of it.
  bool uploading() const override;
  // How many parts, from the first, have gone to the GPU (their data queued
  // in a frame that has been prepared): their CPU meshes are not read again
  // for this model, so an owner done with them may free them.
  std::size_t partsUploaded() const;
  // Bytes of part data one frame may queue (64 MiB unless set; at least one
  // part a frame whatever it is).
  void setUploadBudget(std::size_t bytes);

  // CPU time of the current model's prepare() calls in their two costly
  // steps, summed since setModel (the first frames' share of `riglens-cli
  // render --timings`): the model's buffers uploaded (recorded; the copy runs
  // with the frame), and the pipelines made.
  struct PrepareTimes {
    double uploadMs = 0, pipelinesMs = 0;
  };
  PrepareTimes modelPrepareTimes() const { return m_prepareTimes; }

  // Drops every GPU object (the device is going away); setModel again to draw.
  void releaseResources();

 private:
  void recordParts(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize, std::size_t first, std::size_t last,
                   bool finish);
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  std::shared_ptr<const core::LoadedRun> m_run;
  PrepareTimes m_prepareTimes;
};

}  // namespace riglens::render
