// Every numeric tolerance the tests and parity checks use, in one place, with
// the reason for its size. Loosening one needs a reason in the commit.
#pragma once

namespace riglens::core::tolerance {

// float32 matrix * point for coordinates up to ~1e3 voxels: a handful of ulps
// of the largest term (1e3 * 2^-23 ~ 1.2e-4), so 1e-3 voxel is generous but
// still far below anything a viewer could show.
inline constexpr float kPointVoxels = 1e-3f;

// GPU vs CPU for the same float32 arithmetic: the GPU may fuse multiply-adds
// (FMA) where the CPU rounds twice; the difference stays within a few ulps.
inline constexpr float kGpuCpuRelative = 1e-5f;

// 8-bit colour channels read back from a render target: one step of rounding.
inline constexpr int kColorChannel = 1;

}  // namespace riglens::core::tolerance

namespace riglens::core::tolerance {

// F-curve values: the Bezier solve runs 40 bisection steps (2^-40 of the
// segment in time), so values agree with an exact solve to ~1e-9 relative;
// 1e-7 leaves room for the cubic's own rounding.
inline constexpr double kCurveValue = 1e-7;

// Posed matrices: computed in double, stored as float; |entries| up to ~1e2
// voxels, so float rounding is ~1e-5. 1e-4 voxel is invisible.
inline constexpr double kPoseMatrix = 1e-4;

}  // namespace riglens::core::tolerance

namespace riglens::core::tolerance {

// GNM posed vertices, GPU vs CPU: both float32, but the GPU fuses
// multiply-adds and may sum in another order; over up to 383 terms of a few
// millimetres that is well under a micron. 1e-5 m (10 um on a 20 cm head) is
// invisible.
inline constexpr double kGnmGpuMetres = 1e-5;

}  // namespace riglens::core::tolerance
