#include "riglens/core/aosrig.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>

#include "riglens/core/file_io.h"
#include "riglens/core/half_float.h"
#include "riglens/core/json_file.h"

namespace riglens::core {
namespace {

using nlohmann::json;
constexpr char kMagic[8] = {'A', 'O', 'S', 'R', 'I', 'G', '0', '1'};

std::uint32_t u32At(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t(7); }

struct Failure {
  std::string message;
};

class PackReader {
 public:
  PackReader(std::shared_ptr<const std::vector<std::uint8_t>> bytes, std::string source)
      : m_bytes(std::move(bytes)), m_source(std::move(source)) {}

  [[noreturn]] void fail(const std::string& message) const { throw Failure{message}; }

  AosRigPack read() {
    const auto& b = *m_bytes;
    if (b.size() < 16) fail("file too short (" + std::to_string(b.size()) + " bytes) for an .aosrig header");
    if (std::memcmp(b.data(), kMagic, 8) != 0) fail("bad magic: not an AOSRIG01 pack");
    const std::size_t headerLen = u32At(b, 8), totalLen = u32At(b, 12);
    if (totalLen != b.size())
      fail("totalLen " + std::to_string(totalLen) + " does not match the file size " + std::to_string(b.size()) +
           " (a download cut short?)");
    if (16 + headerLen > b.size()) fail("header length " + std::to_string(headerLen) + " runs past the end of the file");
    const std::string headerText(reinterpret_cast<const char*>(b.data()) + 16, headerLen);
    json header = json::parse(headerText, nullptr, false);
    if (header.is_discarded() || !header.is_object()) fail("the header is not a JSON object");
    AosRigPack pack;
    pack.bytes = m_bytes;
    pack.header = header;
    if (header.value("version", -1) != 1) fail("version " + header.value("version", json(nullptr)).dump() + " is not 1");
    if (header.value("model", std::string()) != "gnm") fail("model " + header.value("model", json(nullptr)).dump() + " is not gnm");
    pack.vertexCount = count(header, "vertexCount");
    pack.coeffCount = count(header, "coeffCount");
    pack.maxInfluence = int(header.value("maxInfluence", 4));
    if (pack.maxInfluence != 4) fail("maxInfluence " + std::to_string(pack.maxInfluence) + " is not 4");
    pack.units = header.value("units", std::string("m"));
    readLayout(header, pack);
    readJoints(header, pack);
    readBuffers(header, pack);
    readBlobs(pack);
    readMouth(header, pack);
    return pack;
  }

 private:
  std::size_t count(const json& h, const char* key) const {
    if (!h.contains(key) || !h[key].is_number_unsigned()) fail(std::string("header ") + key + " missing or not a count");
    return h[key].get<std::size_t>();
  }

  void readLayout(const json& h, AosRigPack& pack) const {
    if (!h.contains("headExt") || !h["headExt"].is_object()) fail("header headExt missing");
    const json& he = h["headExt"];
    HeadExtLayout& l = pack.headExt;
    l.dim = he.value("dim", 387);
    l.exprDim = he.value("exprDim", 383);
    l.gazeDim = he.value("gazeDim", 4);
    if (l.exprDim + l.gazeDim != l.dim) fail("headExt dim " + std::to_string(l.dim) + " != exprDim + gazeDim");
    if (std::size_t(l.exprDim) != pack.coeffCount)
      fail("headExt exprDim " + std::to_string(l.exprDim) + " contradicts coeffCount " + std::to_string(pack.coeffCount));
    int sum = 0;
    for (const auto& r : he.value("regions", json::array())) {
      if (!r.is_array() || r.size() != 2 || !r[0].is_string() || !r[1].is_number_integer()) fail("headExt regions entry is not [name, count]");
      l.regions.push_back({r[0].get<std::string>(), r[1].get<int>()});
      sum += l.regions.back().count;
    }
    if (sum != l.exprDim) fail("headExt regions sum to " + std::to_string(sum) + ", not exprDim " + std::to_string(l.exprDim));
    if (he.contains("reduced") && he["reduced"].is_object())
      for (const auto& r : l.regions)
        if (he["reduced"].contains(r.name)) l.reduced.push_back({r.name, he["reduced"][r.name].get<int>()});
  }

  void readJoints(const json& h, AosRigPack& pack) const {
    const json joints = h.value("joints", json::array());
    if (!joints.is_array() || joints.empty()) fail("header joints missing or empty");
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const json& j = joints[i];
      if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) fail("joint " + std::to_string(i) + " has no name");
      const int parent = j.value("parent", -1);
      if (parent < -1 || parent >= int(joints.size())) fail("joint " + std::to_string(i) + " parent " + std::to_string(parent) + " out of range");
      pack.joints.push_back({j["name"].get<std::string>(), parent});
    }
    if (h.contains("eyes") && h["eyes"].contains("names")) {
      const json& names = h["eyes"]["names"];
      if (!names.is_array() || names.size() != 2) fail("eyes.names must list two joints");
      for (int e = 0; e < 2; ++e) pack.eyeNames[e] = names[e].get<std::string>();
    }
    if (h.contains("bindTransform") && !h["bindTransform"].is_null()) {
      const json& m = h["bindTransform"];
      if (!m.is_array() || m.size() != 16) fail("bindTransform must be 16 numbers");
      for (int k = 0; k < 16; ++k) pack.bindTransform[k % 4][k / 4] = m[k].get<float>();  // row-major -> column-major
    }
  }

  void readBuffers(const json& h, AosRigPack& pack) const {
    if (!h.contains("buffers") || !h["buffers"].is_array()) fail("header buffers missing");
    const std::size_t fileSize = m_bytes->size();
    for (const auto& e : h["buffers"]) {
      AosBlobInfo info;
      info.name = e.value("name", std::string());
      if (info.name.empty()) fail("a buffer has no name");
      if (!parseDType(e.value("dtype", std::string()), &info.dtype)) fail("buffer " + info.name + ": unknown dtype " + e.value("dtype", json(nullptr)).dump());
      // product(shape) * size with overflow checks: a header cannot ask for
      // more than the file holds.
      std::size_t elements = 1;
      for (const auto& d : e.value("shape", json::array())) {
        const std::size_t n = d.get<std::size_t>();
        if (n != 0 && elements > fileSize / n) fail("buffer " + info.name + ": shape needs more bytes than the file holds");
        elements *= n;
        info.shape.push_back(n);
      }
      info.offset = e.value("offset", std::size_t(0));
      info.byteLength = e.value("byteLength", std::size_t(0));
      if (elements > fileSize / dtypeSize(info.dtype) || elements * dtypeSize(info.dtype) != info.byteLength)
        fail("buffer " + info.name + ": byteLength " + std::to_string(info.byteLength) + " != product(shape) * sizeof(" +
             dtypeName(info.dtype) + ")");
      if (info.offset > fileSize || info.byteLength > fileSize - info.offset)
        fail("buffer " + info.name + " runs past the end of the file");
      pack.buffers.push_back(std::move(info));
    }
  }

  const AosBlobInfo* find(const AosRigPack& pack, const std::string& name) const {
    for (const auto& b : pack.buffers)
      if (b.name == name) return &b;
    return nullptr;
  }
  const AosBlobInfo& require(const AosRigPack& pack, const std::string& name) const {
    const AosBlobInfo* b = find(pack, name);
    if (!b) fail("required blob " + name + " is missing");
    return *b;
  }
  std::size_t elements(const AosBlobInfo& b) const { return b.byteLength / dtypeSize(b.dtype); }
  const std::uint8_t* at(const AosBlobInfo& b) const { return m_bytes->data() + b.offset; }

  void expectCount(const AosBlobInfo& b, std::size_t n, const std::string& why) const {
    if (elements(b) != n)
      fail("blob " + b.name + " has " + std::to_string(elements(b)) + " values, but " + why + " needs " + std::to_string(n));
  }

  FloatArray floats(const AosBlobInfo& b, std::size_t n, const std::string& why) const {
    expectCount(b, n, why);
    FloatArray out;
    if (b.dtype == DType::F32) {
      if (reinterpret_cast<std::uintptr_t>(at(b)) % alignof(float) == 0)
        out.view = {reinterpret_cast<const float*>(at(b)), n};
      else {
        out.owned.resize(n);
        std::memcpy(out.owned.data(), at(b), n * 4);
      }
    } else if (b.dtype == DType::F16) {  // a lighter pack: widen
      out.owned.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, at(b) + 2 * i, 2);
        out.owned[i] = halfToFloat(h);
      }
    } else {
      fail("blob " + b.name + " is " + dtypeName(b.dtype) + ", expected f32 or f16");
    }
    return out;
  }

  template <class Out>
  std::vector<Out> integers(const AosBlobInfo& b, std::size_t n, const std::string& why) const {
    expectCount(b, n, why);
    std::vector<Out> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t* p = at(b) + i * dtypeSize(b.dtype);
      switch (b.dtype) {
        case DType::U32: { std::uint32_t v; std::memcpy(&v, p, 4); out[i] = Out(v); break; }
        case DType::I32: { std::int32_t v; std::memcpy(&v, p, 4); out[i] = Out(v); break; }
        case DType::U16: { std::uint16_t v; std::memcpy(&v, p, 2); out[i] = Out(v); break; }
        case DType::U8: out[i] = Out(*p); break;
        default: fail("blob " + b.name + " is " + dtypeName(b.dtype) + ", expected an integer type");
      }
    }
    return out;
  }

  void readBlobs(AosRigPack& pack) const {
    const std::size_t V = pack.vertexCount, E = pack.coeffCount, J = pack.joints.size();
    pack.neutral = floats(require(pack, "neutral"), V * 3, "V*3");
    const AosBlobInfo& basis = require(pack, "basis");
    if (basis.dtype == DType::U32) {
      const std::size_t lanes = V * E * 3;
      expectCount(basis, (lanes + 1) / 2, "ceil(V*E*3/2) fp16 pairs");
      pack.basisHalf = {reinterpret_cast<const std::uint16_t*>(at(basis)), lanes};
    } else if (basis.dtype == DType::I8) {
      expectCount(basis, V * E * 3, "V*E*3");
      pack.basisI8 = {reinterpret_cast<const std::int8_t*>(at(basis)), V * E * 3};
    } else {
      fail("blob basis is " + std::string(dtypeName(basis.dtype)) + ", expected u32 (fp16 pairs) or i8");
    }
    pack.basisScale = floats(require(pack, "basisScale"), E, "E");
    pack.skinIndex = integers<std::uint16_t>(require(pack, "skinIndex"), V * 4, "V*maxInfluence");
    for (auto j : pack.skinIndex)
      if (j >= J) fail("skinIndex names joint " + std::to_string(j) + " but the pack has " + std::to_string(J));
    const AosBlobInfo& weights = require(pack, "skinWeight");
    if (weights.dtype == DType::F16 || weights.dtype == DType::F32) {
      FloatArray w = floats(weights, V * 4, "V*maxInfluence");
      pack.skinWeight.assign(w.data(), w.data() + w.size());
    } else {
      fail("blob skinWeight is " + std::string(dtypeName(weights.dtype)) + ", expected f16");
    }
    pack.eyePositions = floats(require(pack, "eyePositions"), 6, "2 eyes * 3");
    pack.eyeWeights = floats(require(pack, "eyeWeights"), 2 * V, "2 * V");
    pack.restWorld = floats(require(pack, "restWorld"), J * 16, "J*16 (the joint list)");
    pack.jointParents = integers<std::int32_t>(require(pack, "jointParents"), J, "J (the joint list)");
    const AosBlobInfo& faces = require(pack, "faces");
    if (elements(faces) % 3) fail("blob faces has " + std::to_string(elements(faces)) + " values, not a multiple of 3");
    pack.faces = integers<std::uint32_t>(faces, elements(faces), "T*3");
    for (auto i : pack.faces)
      if (i >= V) fail("faces name vertex " + std::to_string(i) + " but V is " + std::to_string(V));
    if (const AosBlobInfo* q = find(pack, "quads")) {
      if (elements(*q) % 4) fail("blob quads is not a multiple of 4");
      pack.quads = integers<std::uint32_t>(*q, elements(*q), "Q*4");
    }
    if (const AosBlobInfo* uv = find(pack, "uv")) pack.uv = floats(*uv, V * 2, "V*2");
    if (const AosBlobInfo* s = find(pack, "stitchLocal")) pack.stitchLocal = floats(*s, V * 3, "V*3");
  }

  void readMouth(const json& h, AosRigPack& pack) const {
    if (!h.contains("mouth") || h["mouth"].is_null()) return;
    const json& m = h["mouth"];
    AosMouth mouth;
    const json groups = m.value("groups", json::array());
    if (groups.empty() || groups.size() > 16) fail("mouth must have 1 to 16 groups, has " + std::to_string(groups.size()));
    for (const auto& g : groups) {
      MouthGroup group;
      group.name = g.value("name", std::string());
      const AosBlobInfo& verts = require(pack, g.value("vertices", std::string()));
      group.vertices = integers<std::uint32_t>(verts, elements(verts), "its vertex list");
      for (auto v : group.vertices)
        if (v >= pack.vertexCount) fail("mouth group " + group.name + " names vertex " + std::to_string(v) + ", past V");
      if (g.contains("look")) {
        const json color = g["look"].value("color", json::array({0.6, 0.3, 0.3}));
        for (int k = 0; k < 3 && k < int(color.size()); ++k) group.colorSrgb[k] = color[k].get<float>();
        group.gloss = g["look"].value("gloss", 0.0f);
      }
      mouth.groups.push_back(std::move(group));
    }
    const AosBlobInfo& faces = require(pack, m.value("faces", std::string()));
    mouth.faces = integers<std::uint32_t>(faces, elements(faces), "T*3");
    const AosBlobInfo& parts = require(pack, m.value("faceParts", std::string()));
    mouth.faceParts = integers<std::uint32_t>(parts, mouth.faces.size() / 3, "one part per mouth face");
    for (auto p : mouth.faceParts)
      if (p < 1 || p > mouth.groups.size()) fail("mouth faceParts names part " + std::to_string(p) + " that does not exist");
    pack.mouth = std::move(mouth);
  }

  std::shared_ptr<const std::vector<std::uint8_t>> m_bytes;
  std::string m_source;
};

}  // namespace

const char* dtypeName(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::U32: return "u32";
    case DType::I32: return "i32";
    case DType::U16: return "u16";
    case DType::U8: return "u8";
    case DType::I8: return "i8";
  }
  return "?";
}

std::size_t dtypeSize(DType d) {
  switch (d) {
    case DType::F32: case DType::U32: case DType::I32: return 4;
    case DType::F16: case DType::U16: return 2;
    case DType::U8: case DType::I8: return 1;
  }
  return 1;
}

bool parseDType(std::string_view name, DType* out) {
  for (DType d : {DType::F32, DType::F16, DType::U32, DType::I32, DType::U16, DType::U8, DType::I8})
    if (name == dtypeName(d)) {
      *out = d;
      return true;
    }
  return false;
}

float AosRigPack::basis(std::size_t v, std::size_t c, int k) const {
  const std::size_t i = (v * coeffCount + c) * 3 + std::size_t(k);
  return basisI8.empty() ? halfToFloat(basisHalf[i]) : float(basisI8[i]);
}

Expected<AosRigPack> parseAosRig(std::shared_ptr<const std::vector<std::uint8_t>> bytes, std::string_view sourceName) {
  try {
    return PackReader(std::move(bytes), std::string(sourceName)).read();
  } catch (const Failure& f) {
    return makeError(ErrorCode::Invalid, std::string(sourceName) + ": " + f.message);
  } catch (const nlohmann::json::exception& e) {
    return makeError(ErrorCode::Invalid, std::string(sourceName) + ": header field of the wrong type (" + e.what() + ")");
  }
}

Expected<AosRigPack> readAosRig(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()), path);
}

Expected<std::vector<std::uint8_t>> packAosRig(const nlohmann::ordered_json& headerIn, const std::vector<AosBlob>& blobs) {
  // Offsets depend on the header's length, which depends on the offsets:
  // iterate from a guess until the encoded length stops changing.
  std::size_t guess = 0;
  std::string text;
  for (int pass = 0; pass < 4; ++pass) {
    nlohmann::ordered_json header = headerIn;
    header.erase("buffers");
    nlohmann::ordered_json buffers = nlohmann::ordered_json::array();
    std::size_t offset = align8(16 + guess);
    for (const AosBlob& b : blobs) {
      buffers.push_back({{"name", b.name}, {"dtype", dtypeName(b.dtype)}, {"shape", b.shape}, {"offset", offset},
                         {"byteLength", b.data.size()}});
      offset = align8(offset + b.data.size());
    }
    header["buffers"] = buffers;
    text = header.dump();
    if (text.size() == guess) {
      std::vector<std::uint8_t> out;
      out.reserve(offset);
      const auto appendU32 = [&out](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
      };
      const auto pad = [&out] { out.resize(align8(out.size()), 0); };
      out.insert(out.end(), kMagic, kMagic + 8);
      appendU32(std::uint32_t(text.size()));
      appendU32(std::uint32_t(offset));
      out.insert(out.end(), text.begin(), text.end());
      pad();
      for (const AosBlob& b : blobs) {
        out.insert(out.end(), b.data.begin(), b.data.end());
        pad();
      }
      return out;
    }
    guess = text.size();
  }
  return makeError(ErrorCode::Invalid, "packAosRig: the header length did not converge in 4 passes");
}

}  // namespace riglens::core
