// A rig's parts on the GPU: each part's vertex and index buffers, the
// expanded copy the wireframe tint draws, and the pipelines that draw them.
// RigRenderer uploads a model part by part within a byte budget a frame;
// these make one part's buffers and one pipeline variant.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <cstddef>
#include <memory>

#include "riglens/core/gltf/part_mesh.h"

namespace riglens::render {

using Buffer = std::unique_ptr<QRhiBuffer>;

// One part's GPU buffers.
struct GpuPart {
  Buffer positions, normals, colors, indices;
  Buffer boneTints;    // a skinned mesh's joint tint, per vertex (core::boneWeightTints)
  Buffer vertexTints;  // FrameState::vertexTints' colours for this part (re-uploaded as they change)
  Buffer tangents;     // a skinned mesh's normal-map tangents, written by the skinning pass (else null)
  quint32 indexCount = 0;
  bool closed = false;     // core::isClosedOutwardSurface: its back faces are culled
  bool flatFaces = false;  // core::hasFlatFaces, not skinned: the review look shades it per vertex
  // Wireframe: the triangles expanded (no sharing) with per-vertex barycentrics.
  Buffer wirePositions, wireNormals, wireColors, wireBary;
  quint32 wireVertexCount = 0;
  std::size_t vertexBytes = 0, indexBytes = 0, wireBytes = 0;
};

// A buffer of `bytes` (at least 4) with `data` queued on `batch` (none:
// left for a GPU pass to write); null when it cannot be created.
Buffer newStaticBuffer(QRhi* rhi, QRhiBuffer::UsageFlags usage, const void* data, std::size_t bytes,
                       QRhiResourceUpdateBatch* batch, QRhiBuffer::Type type = QRhiBuffer::Immutable);

// `part`'s buffers for `mesh`, queued on `batch`. A skinned mesh's positions
// and normals are storage the skinning pass writes, not uploaded. False when
// a buffer cannot be created.
bool uploadPart(QRhi* rhi, const core::PartMesh& mesh, bool skinned, QRhiResourceUpdateBatch* batch, GpuPart& part);

// The wireframe copy of `part` (each triangle's corners apart, with their
// barycentrics), made once, when the wireframe tint is first drawn.
void uploadWireframe(QRhi* rhi, const core::PartMesh& mesh, QRhiResourceUpdateBatch* batch, GpuPart& part);

// How a part pipeline draws: the wireframe reads barycentrics per vertex,
// a sectioned model texture coordinates; a blended section does not write
// depth; a single-sided one culls its back faces.
struct PartVariant {
  bool wireframe = false, textured = false, blended = false;
  bool pbr = false;    // the PBR look's shaders (part_pbr.vert / part_pbr.frag)
  bool plain = false;  // with pbr: a material without textures or MToon (part_pbr_plain.frag)
  bool flat = false;   // flat faces in the review look (part_flat.vert / part_flat.frag)
  QRhiGraphicsPipeline::CullMode cull = QRhiGraphicsPipeline::None;
};

// The pipeline that draws parts (part.vert / part.frag) in `variant`, with
// `bindings` as its layout (the default material's); null when it cannot be
// created.
std::unique_ptr<QRhiGraphicsPipeline> newPartPipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp, int samples,
                                                      QRhiShaderResourceBindings* bindings, PartVariant variant);

}  // namespace riglens::render
