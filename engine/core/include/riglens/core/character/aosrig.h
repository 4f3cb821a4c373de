// The .aosrig pack: a baked GNM head (contract/CHARACTER.md section 1).
//
//   bytes 0..7  "AOSRIG01"     8..11 u32 headerLen     12..15 u32 totalLen (= file size)
//   16..        header JSON, zero-padded to 8 bytes; then the blobs at the
//               offsets the header gives, each zero-padded to 8 bytes.
//
// parseAosRig keeps the file bytes and views blobs in place where their type
// is the one used at run time (little-endian, 8-byte aligned); lighter packs
// (f16 for an f32 blob, u16/u8 for a u32 one) are widened on load, and skin
// weights (f16 lanes) are always materialised as floats. Every refusal names
// the problem; counts in the header are checked against the file size before
// anything is allocated.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <glm/mat4x4.hpp>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

enum class DType { F32, F16, U32, I32, U16, U8, I8 };
const char* dtypeName(DType dtype);
std::size_t dtypeSize(DType dtype);
bool parseDType(std::string_view name, DType* out);

struct RegionCount {
  std::string name;
  int count = 0;
};

struct HeadExtLayout {
  int dim = 387;  // exprDim + gazeDim
  int exprDim = 383;
  int gazeDim = 4;                   // [pitch_L, yaw_L, pitch_R, yaw_R], radians
  std::vector<RegionCount> regions;  // tile [0, exprDim) in order
  std::vector<RegionCount> reduced;  // the reduced ML view: per-region counts (sum 64), + gaze = 68
};

struct AosJoint {
  std::string name;
  int parent = -1;
};

struct AosBlobInfo {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::size_t> shape;
  std::size_t offset = 0;
  std::size_t byteLength = 0;
};

// A float array viewed in the file's bytes, or widened into `owned`.
struct FloatArray {
  std::span<const float> view;
  std::vector<float> owned;
  const float* data() const { return owned.empty() ? view.data() : owned.data(); }
  std::size_t size() const { return owned.empty() ? view.size() : owned.size(); }
  float operator[](std::size_t i) const { return data()[i]; }
  bool zeroCopy() const { return owned.empty() && !view.empty(); }
};

struct MouthGroup {
  std::string name;
  std::vector<std::uint32_t> vertices;
  std::array<float, 3> colorSrgb{0.6f, 0.3f, 0.3f};
  float gloss = 0.0f;
};

struct AosMouth {
  std::vector<MouthGroup> groups;        // 1..16
  std::vector<std::uint32_t> faces;      // T*3
  std::vector<std::uint32_t> faceParts;  // T: 1 + group index
};

// The fp16 basis again, coefficient-major (E x V*3): what the CPU reads for a
// frame with few coefficients active, each one's values contiguous. Built on
// the first such frame (gnm.cpp), for the basis it was built from.
struct CoefficientMajorBasis {
  std::mutex mutex;
  const std::uint16_t* builtFrom = nullptr;
  std::vector<std::uint16_t> halfs;
};

struct AosRigPack {
  std::shared_ptr<const std::vector<std::uint8_t>> bytes;  // keeps the views alive
  nlohmann::json header;
  std::size_t vertexCount = 0;  // V
  std::size_t coeffCount = 0;   // E
  int maxInfluence = 4;
  std::string units = "m";
  HeadExtLayout headExt;
  std::vector<AosJoint> joints;
  std::array<std::string, 2> eyeNames;
  glm::mat4 bindTransform{1.0f};  // head-local -> body bind space (from row-major)
  std::vector<AosBlobInfo> buffers;

  FloatArray neutral;                        // V*3, metres
  std::span<const std::uint16_t> basisHalf;  // V*E*3 fp16 lanes (vertex-major), or empty
  std::span<const std::int8_t> basisI8;      // V*E*3 whole numbers, or empty
  FloatArray basisScale;                     // E
  std::vector<std::uint16_t> skinIndex;      // V*4, into joints
  std::vector<float> skinWeight;             // V*4, widened from f16
  FloatArray eyePositions;                   // 2*3
  FloatArray eyeWeights;                     // 2*V
  FloatArray restWorld;                      // J*16, row-major
  std::vector<std::int32_t> jointParents;    // J
  std::vector<std::uint32_t> faces;          // T*3
  std::vector<std::uint32_t> quads;          // Q*4 (optional)
  FloatArray uv;                             // V*2 (optional)
  FloatArray stitchLocal;                    // V*3 (optional)
  std::optional<AosMouth> mouth;
  // Shared by copies of the pack; the GPU path never builds it.
  std::shared_ptr<CoefficientMajorBasis> coefficientMajor = std::make_shared<CoefficientMajorBasis>();

  // Basis value (metres per unit coefficient, before basisScale) for vertex
  // v, coefficient c, axis k.
  float basis(std::size_t v, std::size_t c, int k) const;
};

// `sourceName` appears in every error message.
Expected<AosRigPack> parseAosRig(std::shared_ptr<const std::vector<std::uint8_t>> bytes, std::string_view sourceName);
Expected<AosRigPack> readAosRig(const std::string& path);

// A blob to pack: copied verbatim; dtype and shape are what the parser checks.
struct AosBlob {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::size_t> shape;
  std::vector<std::uint8_t> data;
};

// Header keys in a fixed order (everything but "buffers", which is derived).
// Deterministic: packing the same bake twice is byte-identical. Fails when
// the header length does not converge in 4 passes.
Expected<std::vector<std::uint8_t>> packAosRig(const nlohmann::ordered_json& header, const std::vector<AosBlob>& blobs);

template <class T>
AosBlob makeBlob(std::string name, DType dtype, std::vector<std::size_t> shape, const std::vector<T>& values) {
  AosBlob blob{std::move(name), dtype, std::move(shape), {}};
  blob.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(blob.data.data(), values.data(), blob.data.size());
  return blob;
}

}  // namespace riglens::core
