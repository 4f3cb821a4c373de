// The interface between RigLens' C++ and its shaders, written once: uniform
// block layouts (std140), binding numbers and workgroup sizes. The GLSL
// sources include it (#extension GL_GOOGLE_include_directive), so does
// engine/render; parity::verifyShaderLayouts checks every block below against
// the compiled shaders' reflection data, member by member.
//
// GLSL sees only the blocks a shader asks for (#define RIGLENS_WANT_<BLOCK>
// before the include): a shader declaring a block it never uses would still
// carry it in its reflection. C++ sees everything.
#ifndef RIGLENS_SHADER_INTERFACE_H
#define RIGLENS_SHADER_INTERFACE_H
// GLSL reads this file too, and clang-format would split the block macros'
// closing lines ("} RIGLENS_INSTANCE(frame);"): formatted by hand.
// clang-format off

#ifdef __cplusplus
#include <cstdint>
namespace riglens::render::gpu {
// The GLSL types with their std140 alignment; members stay plain floats so a
// block is filled with glm values through toGpu() (engine/render).
using uint = std::uint32_t;
struct alignas(8) vec2 { float x, y; };
struct alignas(16) vec4 { float x, y, z, w; };
struct alignas(16) ivec4 { std::int32_t x, y, z, w; };
struct alignas(16) uvec4 { uint x, y, z, w; };
struct alignas(16) mat4 { float m[16]; };  // column-major, as GLSL
#define RIGLENS_CONST inline constexpr
#define RIGLENS_UNIFORM(Name, slot) struct Name
#define RIGLENS_INSTANCE(name)
#else
#define RIGLENS_CONST const
#define RIGLENS_UNIFORM(Name, slot) layout(std140, binding = slot) uniform Name
#define RIGLENS_INSTANCE(name) name
#endif

// ---- part.vert / part.frag / lines.vert: the voxel rig's frame and parts
RIGLENS_CONST int kFrameBinding = 0;
RIGLENS_CONST int kPartBinding = 1;  // one slot per part, dynamic offset
RIGLENS_CONST int kMaxLights = 8;    // core::kMaxPunctualLights
#if defined(__cplusplus) || defined(RIGLENS_WANT_FRAME)
RIGLENS_UNIFORM(FrameBlock, kFrameBinding) {
  mat4 viewProj;
  vec4 cameraPos;
  vec4 keyDir;          // xyz: towards the light, w: intensity
  vec4 fillDir;
  vec4 skyColor;        // rgb, w: ambient strength
  vec4 groundColor;
  vec4 highlightColor;  // rgb, w: mix amount
  ivec4 mode;           // x: tint mode, y: encode sRGB, z: wireframe overlay
  vec4 wire;            // x: edge width in pixels, yzw: edge colour
  // The PBR look (core::Look::Pbr) and its punctual lights (core::PunctualLight)
  ivec4 look;           // x: 1 = PBR (the look picks the pipeline; kept for tools), y: tone map
                        // (0 PBR Neutral, 1 ACES, 2 none), z: light count
  vec4 exposure;        // x: linear scale (2^EV), y: environment intensity
  vec4 environment;     // x: its turn about +y (radians), y: the prefiltered map's top level
                        // (0: no image-based light, the sky and ground stand in), w: the background's level
  vec4 lightPosition[kMaxLights];   // xyz, w: type (0 directional, 1 point, 2 spot)
  vec4 lightDirection[kMaxLights];  // xyz: the way the light travels, w: range (0: unbounded)
  vec4 lightColor[kMaxLights];      // rgb: colour x intensity
  vec4 lightCone[kMaxLights];       // x: cos(outer cone angle), y: cos(inner cone angle)
} RIGLENS_INSTANCE(frame);
#endif
#if defined(__cplusplus) || defined(RIGLENS_WANT_PART)
RIGLENS_UNIFORM(PartBlock, kPartBinding) {
  mat4 model;
  mat4 normalMatrix;  // inverse-transpose of the model's 3x3, in a mat4
  vec4 tint;          // rgb: QA tint, w: 1 when highlighted
} RIGLENS_INSTANCE(part);
#endif

// A glTF material as the viewer draws it (core::MeshMaterial), one per
// material; its textures beside it (a 1x1 white one where it has none).
RIGLENS_CONST int kMaterialBinding = 2, kBaseColorBinding = 3, kMetallicRoughnessBinding = 4, kNormalBinding = 5,
                  kOcclusionBinding = 6, kEmissiveBinding = 7;
// The PBR look's image-based light (every material's bindings carry it):
// the prefiltered specular map (one roughness a level), the irradiance
// map, the split-sum BRDF table.
RIGLENS_CONST int kPrefilteredBinding = 8, kIrradianceBinding = 9, kBrdfLutBinding = 10;
// The PBR textures, in the order of `textures`, `sets` and uvRows' pairs.
RIGLENS_CONST int kMetallicRoughnessTexture = 0, kNormalTexture = 1, kOcclusionTexture = 2, kEmissiveTexture = 3;
#if defined(__cplusplus) || defined(RIGLENS_WANT_MATERIAL)
RIGLENS_UNIFORM(MaterialBlock, kMaterialBinding) {
  vec4 alpha;      // x: baseColorFactor's alpha, y: MASK cutoff (-1: no mask), z: 1 when blended
  ivec4 flags;     // x: 1 when textured, y: 1 when unlit (KHR_materials_unlit)
  // Per PBR texture (x, y, z, w: metallic-roughness, normal, occlusion,
  // emissive); floats, not bits: GLSL 120 and ES 100 have no bitwise ops.
  vec4 textures;   // 1 when present
  vec4 sets;       // 1 when it reads texture set 1 (core::MaterialTexture::set)
  vec4 pbr;        // x: metallic, y: roughness, z: normal scale, w: occlusion strength
  vec4 emissive;   // rgb: emissiveFactor x KHR_materials_emissive_strength
  vec4 specular;   // rgb: KHR_materials_specular's colour factor, w: its factor
  vec4 ior;        // x: KHR_materials_ior's ior (1.5 unless given)
  vec4 uvRows[8];  // PBR texture t's uvTransform: rows 2t and 2t + 1 (xyz each)
  // VRM's MToon (core::ToonShading), which the PBR look draws in place of the above:
  vec4 toonShade;  // rgb: the shade colour, w: 1 when the shade is multiplied by the base colour's texel
  vec4 toon;       // x: 1 for an MToon material, y: shading shift, z: shading toony
} RIGLENS_INSTANCE(material);
#endif

// ---- env_prefilter / env_irradiance / env_brdf_lut.comp: the image-based
// light made from an environment map (one dispatch per target level)
RIGLENS_CONST int kEnvGroupSize = 8;
RIGLENS_CONST int kEnvParamsBinding = 0, kEnvSource = 1, kEnvTarget = 2;
#if defined(__cplusplus) || defined(RIGLENS_WANT_ENVIRONMENT)
RIGLENS_UNIFORM(EnvParams, kEnvParamsBinding) {
  ivec4 size;   // x, y: the target level's size; z: samples per texel; w: the source's mip levels
  vec4 sampling;  // x: roughness; y, z: the source's size; w: the source level read (irradiance, level 0)
} RIGLENS_INSTANCE(env);
#endif

// ---- skin.comp: linear blend skinning of a part mesh
RIGLENS_CONST uint kSkinGroupSize = 64u;
RIGLENS_CONST int kSkinParamsBinding = 0, kSkinRestPositions = 1, kSkinRestNormals = 2, kSkinJoints = 3, kSkinWeights = 4,
                  kSkinBones = 5, kSkinOutPositions = 6, kSkinOutNormals = 7;
// Its morph stage (glTF morph targets, core::MorphData), before the bones.
RIGLENS_CONST int kSkinMorphRangeOf = 8, kSkinMorphRanges = 9, kSkinMorphSlots = 10, kSkinMorphWeights = 11,
                  kSkinMorphPositions = 12, kSkinMorphNormals = 13;
// Its tangents (4 floats a vertex: xyz, bitangent sign), turned with the
// normals when the mesh has normal maps (SkinParams::tangents).
RIGLENS_CONST int kSkinRestTangents = 14, kSkinOutTangents = 15;
RIGLENS_CONST uint kSkinNoMorphRange = 0xffffffffu;
#if defined(__cplusplus) || defined(RIGLENS_WANT_SKIN)
RIGLENS_UNIFORM(SkinParams, kSkinParamsBinding) {
  uint vertexCount;
  uint boneCount;
  uint slotCount;  // morph target slots; 0: no morph stage
  uint rigid;      // 1: one bone a vertex, packed four to a joints entry (core::SkinData::rigid); no weights
  uint tangents;   // 1: skin the rest tangents too (core::skinTangents)
  uint pad0, pad1, pad2;
} RIGLENS_INSTANCE(params);
#endif

// ---- gnm.comp: the GNM face rig (neutral + fp16 basis, gaze, stitch, LBS).
// The basis rows are padded to kGnmRowAlign halves so the dense path reads
// them as uvec4 (8 halves); kGnmLanesPerVertex invocations share a row, and
// each of them weighs kGnmRowsPerInvocation rows (of vertices a group's
// width apart) with the scales it reads once. gnm.comp's dense() names its
// two rows (v0, v1): changing this count means changing that function. The
// workgroup size is chosen per device and head (GNM_GROUP_SIZE, gnm_launch.h).
RIGLENS_CONST uint kGnmLanesPerVertex = 8u, kGnmRowAlign = 8u, kGnmMaxDenseLanes = 4096u;
RIGLENS_CONST uint kGnmRowsPerInvocation = 2u;
RIGLENS_CONST int kGnmParamsBinding = 0, kGnmNeutral = 1, kGnmBasis = 2, kGnmActives = 3, kGnmEyeWeights = 4, kGnmStitch = 5,
                  kGnmSkinIndex = 6, kGnmSkinWeight = 7, kGnmSkin = 8, kGnmPosed = 9, kGnmLaneScales = 10;
RIGLENS_CONST uint kGnmStitchFlag = 1u, kGnmGazeLeftFlag = 2u, kGnmGazeRightFlag = 4u, kGnmDenseFlag = 8u;
#if defined(__cplusplus) || defined(RIGLENS_WANT_GNM)
RIGLENS_UNIFORM(GnmParams, kGnmParamsBinding) {
  uint vertexCount;
  uint rowLanes;     // halves per basis row: 3 E rounded up to kGnmRowAlign
  uint activeCount;
  uint flags;  // kGnmStitchFlag | kGnmGazeLeftFlag | kGnmGazeRightFlag | kGnmDenseFlag
  vec4 eyePos[2];
  mat4 eyeRot[2];  // rotation in the upper 3x3
} RIGLENS_INSTANCE(params);
#endif

// ---- orl_deform.comp: the ORL deform (DECODERS.md B2): blendshape deltas
// as CSR rows per vertex, then linear-blend skinning by the joints'
// world * inverse-bind rows (3 vec4 per joint). Centimetres.
RIGLENS_CONST uint kOrlGroupSize = 64u;
RIGLENS_CONST int kOrlParamsBinding = 0, kOrlNeutral = 1, kOrlCsrOffset = 2, kOrlCsrChannel = 3, kOrlCsrDelta = 4,
                  kOrlSkinIndex = 5, kOrlSkinWeight = 6, kOrlSkinRows = 7, kOrlWeights = 8, kOrlPosed = 9;
#if defined(__cplusplus) || defined(RIGLENS_WANT_ORL)
RIGLENS_UNIFORM(OrlParams, kOrlParamsBinding) {
  uint vertexCount;
  uint maxInfluence;
  uint channelCount;
  uint jointCount;
} RIGLENS_INSTANCE(params);
#endif

// ---- lift.comp: the debug lift, one isotropic gaussian per vertex
RIGLENS_CONST uint kLiftGroupSize = 64u;
RIGLENS_CONST int kLiftParamsBinding = 0, kLiftPositions = 1, kLiftTints = 2, kLiftCenters = 3, kLiftCovA = 4, kLiftCovB = 5,
                  kLiftColors = 6;
#if defined(__cplusplus) || defined(RIGLENS_WANT_LIFT)
RIGLENS_UNIFORM(LiftParams, kLiftParamsBinding) {
  uint vertexCount;
  uint slotOffset;
  uint slotCount;
  uint shading;  // 0 tint, 1 normal, 2 flat
  vec4 row0;
  vec4 row1;
  vec4 row2;
  float sigma;
  float opacity;
  vec2 pad;
  vec4 centre;  // the fit centroid ("centroid" is a GLSL keyword)
} RIGLENS_INSTANCE(params);
#endif

// ---- decoded_lift_pass1.comp / decoded_lift_pass2.comp: the decoded lift (DECODERS.md A6-A9)
RIGLENS_CONST uint kDecodedGroupSize = 64u;
RIGLENS_CONST int kDecodedParamsBinding = 0;
RIGLENS_CONST int kPass1Vertices = 1, kPass1Corr = 2, kPass1Faces = 3, kPass1Idxim = 4, kPass1Barim = 5, kPass1Triim = 6,
                  kPass1Geom = 7, kPass1Texels = 8;
RIGLENS_CONST int kPass2Texels = 1, kPass2Color = 2, kPass2Centers = 3, kPass2CovA = 4, kPass2CovB = 5, kPass2Colors = 6,
                  kPass2Mask = 7;
RIGLENS_CONST uint kDecodedTexelFloats = 12u;  // pos xyz, S00 S01 S02 S11 S12 S22, opacity logit, validity, pad
#if defined(__cplusplus) || defined(RIGLENS_WANT_DECODED)
RIGLENS_UNIFORM(DecodedLiftParams, kDecodedParamsBinding) {
  uvec4 dims;         // H, W, HW, N (= uv_res: the sample grid)
  uvec4 counts;       // vertex count, face count, 1 = apply the vertex transform, 1 = add corr
  vec4 scaleA;        // scale_log_bias, scale_log_max (1e30 = none), tri_kappa, sliver_q_min
  vec4 scaleB;        // bounded (0/1), log_sigma_max, scale_offset, 0
  vec4 rowL0;         // rows of L (row vectors: v' = v L + o + corr)
  vec4 rowL1;
  vec4 rowL2;
  vec4 offsetO;
  uvec4 slotRange;    // slot offset, slot count, 1 = the branch is hidden (its slots are emptied)
  vec4 worldRot;      // (w, x, y, z)
  vec4 worldOffset;   // xyz, w: world scale
  vec4 mask;          // opacity mask: width, height, threshold, 1 = on (kPass2Mask)
} RIGLENS_INSTANCE(params);
#endif

// ---- radix_upsweep / radix_spine / radix_downsweep.comp: the 8-bit LSD sort,
// reduce-then-scan over tiles of kSortTileKeys keys (no workgroup waits on
// another, so it runs on any Vulkan device, lavapipe included). Every kernel
// of a sort shares one binding layout; the element count is read from a
// buffer so a GPU pass (the splat binning) can set it.
RIGLENS_CONST uint kSortGroupSize = 256u, kSortKeysPerThread = 8u, kSortTileKeys = 2048u;
RIGLENS_CONST int kSortParamsBinding = 0, kSortCount = 1, kSortKeysIn = 2, kSortValuesIn = 3, kSortTileHist = 4,
                  kSortDigitTotals = 5, kSortKeysOut = 6, kSortValuesOut = 7;
#if defined(__cplusplus) || defined(RIGLENS_WANT_SORT)
RIGLENS_UNIFORM(SortParams, kSortParamsBinding) {
  uint capacity;   // at most this many elements (the count buffer may say fewer)
  uint shift;      // this pass's digit: (key >> shift) & 255
  uint tileCount;  // workgroups of the upsweep and downsweep
  uint pad;
} RIGLENS_INSTANCE(params);
#endif

// ---- radix_onesweep_histogram.comp / radix_onesweep.comp: the one-sweep
// LSD sort for Vulkan devices with subgroup ballots (GpuRadixSort's
// OneSweep). One kernel counts every pass's digits at once; then one kernel
// per 8-bit digit ranks a tile with subgroup ballots and finds the tile's
// place among the earlier tiles by decoupled look-back: each tile publishes
// its digit counts (kOneSweepAggregate) and then its inclusive prefix
// (kOneSweepPrefix) in a status word per digit, and a later tile walks back
// over them. Tiles are claimed in launch order through a counter, so a tile
// only ever waits on a tile whose workgroup has already started.
RIGLENS_CONST uint kOneSweepKeysPerThread = 16u, kOneSweepTileKeys = 4096u, kOneSweepHistogramGroups = 1024u;
// Wide tiles (radix_onesweep_wide, the same kernel built with ONESWEEP_WIDE):
// twice the keys a tile, so half the tiles to look back over and half the
// per-tile work. From kOneSweepWideFrom keys the sort takes them. Measured on
// the H100 (32-bit pairs' passes): 1M 0.0887 -> 0.0747 ms, 16M 1.12 -> 0.96;
// but 262k 0.0463 -> 0.0650 and 17,821 0.036 -> 0.057, too few tiles to
// fill the GPU (docs/benchmarks.md, fifteenth sitting). Both kernels run one
// workgroup an SM (their registers), so the narrow tiles win while they fit
// in about one wave of the H100's 132 SMs: 524,288 keys 0.053 against 0.069,
// 557,056 (136 tiles) 0.066 against 0.069, 655,360 0.075 against 0.070
// (eighteenth sitting); the switch sits where the two lines cross. A GPU
// with fewer SMs crosses earlier (RIGLENS_ONESWEEP_WIDE_FROM tunes it).
RIGLENS_CONST uint kOneSweepWideKeysPerThread = 32u, kOneSweepWideTileKeys = 8192u, kOneSweepWideFrom = 589824u;
RIGLENS_CONST uint kOneSweepAggregate = 0x40000000u, kOneSweepPrefix = 0x80000000u, kOneSweepValueMask = 0x3fffffffu;
RIGLENS_CONST int kOneSweepParamsBinding = 0, kOneSweepCount = 1, kOneSweepKeysIn = 2, kOneSweepValuesIn = 3,
                  kOneSweepHist = 4, kOneSweepTileCounters = 5, kOneSweepStatus = 6, kOneSweepStatusNext = 7,
                  kOneSweepKeysOut = 8, kOneSweepValuesOut = 9, kOneSweepHistNext = 10;
#if defined(__cplusplus) || defined(RIGLENS_WANT_ONESWEEP)
// The digit counts live in two buffers that alternate between sorts: a
// sort's last pass clears the one the next sort counts into, so no sort
// uploads zeros (or its count) before it, and its kernels follow each other
// with no copy between them.
RIGLENS_CONST uint kOneSweepHistWords = 4u * 256u;  // every pass's 256 digits
RIGLENS_UNIFORM(OneSweepParams, kOneSweepParamsBinding) {
  uint capacity;  // at most this many elements (the count buffer may say fewer)
  uint pass;      // this kernel's digit: (key >> 8 * pass) & 255
  uint passes;    // digits of the key (the histogram counts them all)
  uint histogramGroups;  // workgroups of the histogram kernel (HLSL has no gl_NumWorkGroups)
  uint countOnGpu;       // 1: min(capacity, the count buffer) elements; 0: capacity is the count
} RIGLENS_INSTANCE(params);
#endif

// ---- splat_project.comp / splat.vert: projection and the splat draw;
// splat_tile_ranges / splat_raster.comp / splat_composite.*: the compute
// rasteriser (tiles of kSplatTile x kSplatTile pixels)
RIGLENS_CONST uint kProjectGroupSize = 256u;
RIGLENS_CONST uint kSplatTile = 16u;  // a raster workgroup is one tile, one invocation per pixel
RIGLENS_CONST int kSplatViewBinding = 0;
RIGLENS_CONST int kProjectCenters = 1, kProjectCovA = 2, kProjectCovB = 3, kProjectColors = 4, kProjectProjected = 5,
                  kProjectKeys = 6, kProjectValues = 7, kProjectSh = 8, kProjectTileDepth = 9;
// splat_tile_count / _offsets / _emit.comp: the tile keys, taken over the
// splats in their depth order (kTilesOrder, the projection's keys sorted)
// by a reduce-then-scan, so a stable sort on the tile alone leaves each
// tile's splats front to back, and the order of equal keys and the image
// are the same every run
RIGLENS_CONST int kTilesProjected = 1, kTilesDepth = 2, kTilesGroupSums = 3, kTilesKeys = 4, kTilesValues = 5,
                  kTilesCount = 6, kTilesOrder = 7, kTilesHeld = 8;
RIGLENS_CONST int kDrawProjected = 1, kDrawOrder = 2;
RIGLENS_CONST uint kRangeGroups = 256u;  // the ranges pass strides over the keys with this many workgroups
// kTilesHeld, kRangesHeld, kRasterHeld: the tiles holding keys this frame
// (one word: the offsets pass clears it, the ranges pass counts them).
RIGLENS_CONST int kRangesKeys = 1, kRangesCount = 2, kRangesOut = 3, kRangesHeld = 4;
RIGLENS_CONST int kRasterProjected = 1, kRasterOrder = 2, kRasterRanges = 3, kRasterImage = 4, kRasterKeys = 5,
                  kRasterCount = 6, kRasterPartT = 7, kRasterPartials = 8, kRasterHeld = 9;
// A tile's run of keys longer than a part (SplatView.parts.x keys) is
// blended in parts by workgroups of their own (splat_raster_parts.glsl):
// the raster's time is its longest run's, not its total work.
RIGLENS_CONST uint kRasterPartKeys = 2048u;
// SplatView.tiles.z: the frame counts the tile keys the view needs (quads
// draw it: the projection's keys run back to front), or the compute tiles
// draw it (front to back, the order the tiles blend in).
RIGLENS_CONST uint kTilesCounted = 1u, kTilesDrawn = 2u;
RIGLENS_CONST int kCompositeViewBinding = 0, kCompositeImage = 1, kCompositeTarget = 2;
RIGLENS_CONST uint kCompositeGroupSize = 16u;  // splat_to_target.comp: 16x16 pixels a workgroup
#if defined(__cplusplus) || defined(RIGLENS_WANT_COMPOSITE)
RIGLENS_UNIFORM(CompositeView, kCompositeViewBinding) {
  vec4 viewport;    // width, height; window depth = NDC depth * z + w
  vec4 drawn;       // x0, y0, x1, y1: the image's pixels the composite covers (where splats are)
  vec4 background;  // splat_to_target.comp: what the pass would have cleared to
} RIGLENS_INSTANCE(composite);
#endif
#if defined(__cplusplus) || defined(RIGLENS_WANT_SPLAT_VIEW)
RIGLENS_UNIFORM(SplatView, kSplatViewBinding) {
  mat4 view;
  mat4 proj;      // with the backend's clip-space correction
  vec4 viewport;  // width, height, fx, fy (pixels)
  uvec4 count;    // x: splats, y: flip y, z: SH degree (0: the packed colour), w: SH floats per splat
  uvec4 tiles;    // x, y: tiles across and down; z: kTilesCounted or kTilesDrawn (else 0); w: the room for tile keys
  vec4 depthKey;  // x: near, y: 65535 / log(far / near): the 16-bit logarithmic depth of the sort keys
  uvec4 parts;    // the compute tiles' parts: x: keys a part (0: every run one part), y: chunks, z: the raster grid's
                  // width, w: the workgroups the GPU runs at once (0: cut every run of two parts, however many
                  // tiles hold keys)
} RIGLENS_INSTANCE(u);
#endif

// ---- transform_points.comp: the smoke test's compute pass
RIGLENS_CONST uint kTransformGroupSize = 64u;
RIGLENS_CONST int kTransformParamsBinding = 0, kTransformIn = 1, kTransformOut = 2;
#if defined(__cplusplus) || defined(RIGLENS_WANT_TRANSFORM)
RIGLENS_UNIFORM(TransformParams, kTransformParamsBinding) {
  mat4 matrix;
  uint count;
} RIGLENS_INSTANCE(params);
#endif

// ---- vertex_color.vert: the smoke test's unlit triangles
RIGLENS_CONST int kMvpBinding = 0;
#if defined(__cplusplus) || defined(RIGLENS_WANT_MVP)
RIGLENS_UNIFORM(MvpBlock, kMvpBinding) {
  mat4 mvp;  // clip-space correction already folded in on the CPU
} RIGLENS_INSTANCE(frame);
#endif

#ifdef __cplusplus
static_assert(sizeof(FrameBlock) == 752 && sizeof(EnvParams) == 32 && sizeof(MaterialBlock) == 288 && sizeof(PartBlock) == 144 && sizeof(GnmParams) == 176 && sizeof(LiftParams) == 96 &&
              sizeof(SplatView) == 208 && sizeof(CompositeView) == 48 && sizeof(SortParams) == 16 && sizeof(OneSweepParams) == 20 && sizeof(DecodedLiftParams) == 192);
}  // namespace riglens::render::gpu
#endif

// clang-format on
#endif  // RIGLENS_SHADER_INTERFACE_H
