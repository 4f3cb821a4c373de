// The decoded lift on the CPU (contract/DECODERS.md A6-A9): the reference the
// GPU passes (shaders/decoded_lift_pass1.comp, _pass2.comp) are tested
// against, and the lift of the CLI's `character splats`.
//
//  pass 1, per texel: the triangle's Jacobian frame J = [e0 | e1 | c2] from
//          the posed (calibrated) vertices, centre = base + J * offset,
//          covariance g^2 (J R S)(J R S)^T with the scale map and the
//          triangle bound;
//  pass 2, per output slot: bilinear resample, validity threshold, optional
//          opacity mask, eigen-decomposition floor, the bundle's world
//          rotation/scale/offset, colour and opacity packed into the sink.
#pragma once

#include <array>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "riglens/core/decoded/decoder_spec.h"
#include "riglens/core/splats/splat_sink.h"

namespace riglens::core {

struct BranchMesh;

// v' = v L + o + corr[i], L a row-major 3x3 applied to row vectors (A6):
// the calibration's rig-space -> bundle-space similarity.
struct VertexTransform {
  std::array<float, 9> L{1, 0, 0, 0, 1, 0, 0, 0, 1};
  glm::vec3 o{0.0f};
  std::vector<float> corr;  // V*3, or empty
};
void applyVertexTransform(std::span<float> vertices, const VertexTransform& transform);

// Where a branch's gaussians land: its sink slots and the bundle's world
// placement (rotation as (w,x,y,z)).
struct LiftPlacement {
  std::uint32_t slotOffset = 0, slotCount = 0;
  std::array<float, 4> worldRotation{1, 0, 0, 0};
  glm::vec3 worldOffset{0.0f};
  float worldScale = 1.0f;
};

// scene.json world_rotation: XYZ Euler degrees as three.js composes them
// (q = qx * qy * qz); all zero -> identity.
std::array<float, 4> worldRotationQuaternion(double xDeg, double yDeg, double zDeg);

// A7's map from a raw log-scale channel to sigma (bundle units).
float splatScale(float raw, const LiftScale& scale);

// Pass 1 writes this many floats per texel: pos xyz, S00 S01 S02 S11 S12
// S22, opacity logit, validity (1/0), padding. The GPU pass writes the same.
inline constexpr std::size_t kLiftTexelFloats = 12;

// geomUv: 11 x HW channel-major; vertices: the branch's posed vertices after
// the vertex transform (V*3). The mesh's maps must be present.
std::vector<float> liftPass1(std::span<const float> geomUv, std::span<const float> vertices, const BranchMesh& mesh,
                             const LiftScale& scale);

// An opacity mask (A9): row-major, top row first, sampled bilinearly with
// clamp-to-edge at the slot's (u, v); below the threshold the slot is empty.
struct OpacityMask {
  int width = 0, height = 0;
  std::vector<float> values;  // width*height in [0, 1]
  float threshold = 0.5f;
};

// texels: pass 1's output; colorUv: 3 x HW channel-major. Writes slots
// [slotOffset, slotOffset + min(HW, slotCount)) of the sink.
void liftPass2(std::span<const float> texels, std::span<const float> colorUv, int uvRes, const LiftPlacement& placement,
               const OpacityMask* mask, SplatSink& sink);

// An empty slot, as pass 2 leaves one it does not fill (centre w 1, the rest 0).
void clearSinkSlot(SplatSink& sink, std::size_t slot);

// A9's eigen-decomposition (cyclic Jacobi, largest pivot, <= 30 rotations):
// the covariance c00 c01 c02 c11 c12 c22 -> eigenvalues and eigenvectors
// (columns of `vectors`, row-major 3x3).
void symmetricEigen3(const std::array<float, 6>& c, std::array<float, 3>& values, std::array<float, 9>& vectors);

}  // namespace riglens::core
