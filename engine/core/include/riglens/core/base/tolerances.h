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

// ORL posed vertices, GPU vs CPU (core::orlDeform in double, the shader in
// float32 with fused multiply-adds and deltas dequantised once): the same
// 10 um as GNM, in the ORL pack's centimetres.
inline constexpr double kOrlGpuCentimetres = 1e-3;

}  // namespace riglens::core::tolerance

// The tests' own comparisons, each named for the arithmetic it absorbs.
namespace riglens::core::tolerance {

// Doubles through a few operations on values of order 1-1000 (joint values,
// clock times, curve samples printed with 17 digits by the CLI): exact to a
// few ulps (~1e-13 here); 1e-9 only says "the same number".
inline constexpr double kDouble = 1e-9;

// A float32 value of order 1 (colours, unit quaternions, scales, slider
// values held as floats): one ulp is 1.2e-7, so 1e-6 is ~8 ulps.
inline constexpr double kFloatUnit = 1e-6;

// float32 coordinates of order 1-100 (voxels, centimetres, metres) after a
// handful of operations (skinning, a covariance product): ulps up to ~8e-6.
inline constexpr double kFloatCoordinate = 1e-5;

// float32 coordinates of order 10-100 after a chain of products (a vertex
// through posed world matrices, a sum of hundreds of float terms, values
// printed and parsed back): ulps there reach ~1e-5 and add up over tens of
// operations. 1e-4 voxel / cm is still invisible.
inline constexpr double kFloatChain = 1e-4;

// One step of an 8-bit channel in a [0, 1] colour (what an RGBA8 target or
// an 8-bit texture can tell apart).
inline constexpr double kColorStep = 1.0 / 255.0;

// A symmetric matrix built two ways in float32 (a covariance from scales and
// a rotation, then projected or rotated again), relative to its largest
// entry: squares of values of order 1e-3..1 lose ~1e-6 relative per product.
inline constexpr double kCovarianceRelative = 1e-4;

// A deformation that is meant to move a vertex moves it by far more than
// this (a millimetre / a thousandth of a voxel): "it moved" above it.
inline constexpr double kMoved = 1e-3;

// Golden images: lavapipe is deterministic on one machine; another LLVM or
// Mesa build may round shading and MSAA coverage differently at edges, so a
// pixel may differ by up to 8/255 per channel and 0.5% of pixels may differ more.
inline constexpr int kGoldenChannel = 8;
inline constexpr double kGoldenDifferingFraction = 0.005;

}  // namespace riglens::core::tolerance
