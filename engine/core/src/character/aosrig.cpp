#include "riglens/core/character/aosrig.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/half_float.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

using nlohmann::json;
constexpr char kMagic[8] = {'A', 'O', 'S', 'R', 'I', 'G', '0', '1'};

std::uint32_t u32At(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

std::size_t align8(std::size_t n) {
  return (n + 7) & ~std::size_t(7);
}

// The contract puts every blob on an 8-byte boundary; checking it lets the
// reader view fp16 and f32 blobs in place without a misaligned read.
constexpr std::size_t kBlobAlignment = 8;
// skinIndex is u16: a pack cannot skin to more joints than that.
constexpr std::size_t kMaxJoints = 1 << 16;

class PackReader {
 public:
  explicit PackReader(std::shared_ptr<const std::vector<std::uint8_t>> bytes) : m_bytes(std::move(bytes)) {}

  // Refusals about the binary layout; header problems carry their JSON pointer.
  [[noreturn]] void fail(const std::string& message) const { throwReadProblem("", message); }

  AosRigPack read() {
    const auto& b = *m_bytes;
    if (b.size() < 16) fail("file too short (" + std::to_string(b.size()) + " bytes) for an .aosrig header");
    if (std::memcmp(b.data(), kMagic, 8) != 0) fail("bad magic: not an AOSRIG01 pack");
    const std::size_t headerLen = u32At(b, 8), totalLen = u32At(b, 12);
    if (totalLen != b.size())
      fail("totalLen " + std::to_string(totalLen) + " does not match the file size " + std::to_string(b.size()) +
           " (a download cut short?)");
    if (headerLen > b.size() - 16)
      fail("header length " + std::to_string(headerLen) + " at byte 8 runs past the end of the file");
    const std::string headerText(reinterpret_cast<const char*>(b.data()) + 16, headerLen);
    json header = json::parse(headerText, nullptr, false);
    if (header.is_discarded()) fail("the header (bytes 16.." + std::to_string(16 + headerLen) + ") is not JSON");
    AosRigPack pack;
    pack.bytes = m_bytes;
    pack.header = std::move(header);
    const JsonRef h(pack.header);
    h.object();
    if (h["version"].integer(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()) != 1)
      h["version"].fail(pack.header["version"].dump() + " is not 1");
    if (h["model"].string() != "gnm") h["model"].fail("'" + h["model"].string() + "' is not gnm");
    // Every vertex holds at least its neutral position (6 bytes as f16) and
    // every coefficient its scale: counts past the file size are corrupt.
    pack.vertexCount = h["vertexCount"].count(b.size() / 6);
    pack.coeffCount = h["coeffCount"].count(b.size());
    pack.maxInfluence =
        int(h.integerOr("maxInfluence", 4, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    if (pack.maxInfluence != 4) h["maxInfluence"].fail(std::to_string(pack.maxInfluence) + " is not 4");
    pack.units = h.stringOr("units", "m");
    readLayout(h, pack);
    readJoints(h, pack);
    readBuffers(h, pack);
    readBlobs(pack);
    readMouth(h, pack);
    if (auto source = h.find("source"); source && !source->isObject() && !source->isString())
      source->failType("an object or a string");
    return pack;
  }

 private:
  void readLayout(const JsonRef& h, AosRigPack& pack) const {
    const JsonRef he = h["headExt"];
    he.object();
    HeadExtLayout& l = pack.headExt;
    l.exprDim = int(he.integerOr("exprDim", 383, 0, std::int64_t(pack.coeffCount)));
    // The gaze block is the four eye angles of the contract, or absent.
    l.gazeDim = int(he.integerOr("gazeDim", 4, 0, 4));
    if (l.gazeDim != 0 && l.gazeDim != 4)
      he["gazeDim"].fail("is " + std::to_string(l.gazeDim) + "; a pack has 4 gaze angles or none");
    l.dim = int(he.integerOr("dim", 387, 0, std::int64_t(pack.coeffCount) + 4));
    if (l.exprDim + l.gazeDim != l.dim) he.fail("dim " + std::to_string(l.dim) + " != exprDim + gazeDim");
    if (std::size_t(l.exprDim) != pack.coeffCount)
      he.fail("exprDim " + std::to_string(l.exprDim) + " contradicts coeffCount " + std::to_string(pack.coeffCount));
    std::int64_t sum = 0;
    if (auto regions = he.find("regions")) {
      for (const JsonRef& r : regions->elements()) {
        r.arrayOfSize(2, "elements ([name, count])");
        RegionCount region{r.at(0).string(), r.at(1).toInt(0, l.exprDim)};
        for (const auto& other : l.regions)
          if (other.name == region.name) r.at(0).fail("region '" + region.name + "' is declared twice");
        sum += region.count;
        if (sum > l.exprDim)
          r.at(1).fail("the regions so far hold " + std::to_string(sum) + " coefficients, more than exprDim " +
                       std::to_string(l.exprDim));
        l.regions.push_back(std::move(region));
      }
    }
    if (sum != l.exprDim)
      he.fail("regions sum to " + std::to_string(sum) + ", not exprDim " + std::to_string(l.exprDim));
    if (auto reduced = he.find("reduced")) {
      for (const auto& member : reduced->members()) {
        const std::string& name = member.first;
        const auto region =
            std::find_if(l.regions.begin(), l.regions.end(), [&](const RegionCount& r) { return r.name == name; });
        if (region == l.regions.end()) member.second.fail("names no region of headExt");
        l.reduced.push_back({name, member.second.toInt(0, region->count)});
      }
      // Declared per region, kept in the regions' order (the widening walks it).
      std::stable_sort(l.reduced.begin(), l.reduced.end(), [&](const RegionCount& x, const RegionCount& y) {
        const auto rank = [&](const RegionCount& r) {
          return std::find_if(l.regions.begin(), l.regions.end(),
                              [&](const RegionCount& q) { return q.name == r.name; }) -
                 l.regions.begin();
        };
        return rank(x) < rank(y);
      });
    }
  }

  void readJoints(const JsonRef& h, AosRigPack& pack) const {
    const JsonRef joints = h["joints"];
    if (joints.size() == 0) joints.fail("the pack lists no joints");
    joints.arrayAtMost(kMaxJoints);
    const std::int64_t J = std::int64_t(joints.size());
    for (const JsonRef& j : joints.elements()) {
      j.object();
      pack.joints.push_back({j["name"].string(), int(j.integerOr("parent", -1, -1, J - 1))});
    }
    if (auto eyes = h.find("eyes"); eyes && eyes->has("names")) {
      const JsonRef names = (*eyes)["names"];
      names.arrayOfSize(2, "joint names");
      for (std::size_t e = 0; e < 2; ++e) pack.eyeNames[e] = names.at(e).string();
    }
    if (auto m = h.find("bindTransform")) {
      m->arrayOfSize(16, "numbers");
      for (std::size_t k = 0; k < 16; ++k)
        pack.bindTransform[int(k % 4)][int(k / 4)] = m->at(k).toFloat();  // row-major -> column-major
    }
  }

  void readBuffers(const JsonRef& h, AosRigPack& pack) const {
    const std::size_t fileSize = m_bytes->size();
    for (const JsonRef& e : h["buffers"].elements()) {
      e.object();
      AosBlobInfo info;
      info.name = e["name"].string();
      if (info.name.empty()) e["name"].fail("a buffer has no name");
      for (const auto& other : pack.buffers)
        if (other.name == info.name) e["name"].fail("buffer " + info.name + " is listed twice");
      if (!parseDType(e["dtype"].string(), &info.dtype)) e["dtype"].fail("unknown dtype '" + e["dtype"].string() + "'");
      // product(shape) * size with overflow checks: a header cannot ask for
      // more than the file holds.
      std::size_t elements = 1;
      for (const JsonRef& d : e["shape"].elements()) {
        const std::size_t n = d.count(fileSize);
        if (n != 0 && elements > fileSize / n)
          d.fail("buffer " + info.name + ": the shape needs more bytes than the file holds");
        elements *= n;
        info.shape.push_back(n);
      }
      info.offset = e["offset"].count(fileSize);
      info.byteLength = e["byteLength"].count(fileSize);
      if (elements > fileSize / dtypeSize(info.dtype) || elements * dtypeSize(info.dtype) != info.byteLength)
        e.fail("buffer " + info.name + ": byteLength " + std::to_string(info.byteLength) +
               " != product(shape) * sizeof(" + dtypeName(info.dtype) + ")");
      if (info.byteLength > fileSize - info.offset) e.fail("buffer " + info.name + " runs past the end of the file");
      if (info.offset % kBlobAlignment)
        e["offset"].fail("buffer " + info.name + " starts at byte " + std::to_string(info.offset) +
                         ", not on an 8-byte boundary");
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
      fail("blob " + b.name + " has " + std::to_string(elements(b)) + " values, but " + why + " needs " +
           std::to_string(n));
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
        case DType::U32: {
          std::uint32_t v;
          std::memcpy(&v, p, 4);
          out[i] = Out(v);
          break;
        }
        case DType::I32: {
          std::int32_t v;
          std::memcpy(&v, p, 4);
          out[i] = Out(v);
          break;
        }
        case DType::U16: {
          std::uint16_t v;
          std::memcpy(&v, p, 2);
          out[i] = Out(v);
          break;
        }
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
    // The basis holds at least one byte per vertex and coefficient: V*E past
    // the file size is a corrupt count (and would overflow below).
    if (E != 0 && V > m_bytes->size() / E) fail("vertexCount * coeffCount needs more bytes than the file holds");
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
    for (std::size_t j = 0; j < J; ++j)
      if (pack.jointParents[j] < -1 || pack.jointParents[j] >= std::int32_t(J))
        fail("jointParents names parent " + std::to_string(pack.jointParents[j]) + " for joint " + std::to_string(j) +
             " (the pack has " + std::to_string(J) + ")");
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

  void readMouth(const JsonRef& h, AosRigPack& pack) const {
    const auto m = h.find("mouth");
    if (!m) return;
    m->object();
    AosMouth mouth;
    const JsonRef groups = (*m)["groups"];
    if (groups.size() == 0 || groups.size() > 16)
      groups.fail("a mouth has 1 to 16 groups, this one " + std::to_string(groups.size()));
    for (const JsonRef& g : groups.elements()) {
      g.object();
      MouthGroup group;
      group.name = g.stringOr("name", "");
      const AosBlobInfo& verts = require(pack, g["vertices"].string());
      group.vertices = integers<std::uint32_t>(verts, elements(verts), "its vertex list");
      for (auto v : group.vertices)
        if (v >= pack.vertexCount)
          g["vertices"].fail("mouth group " + group.name + " names vertex " + std::to_string(v) + ", past V");
      if (auto look = g.find("look")) {
        look->object();
        if (auto color = look->find("color")) {
          color->arrayOfSize(3, "numbers (sRGB)");
          for (std::size_t k = 0; k < 3; ++k) group.colorSrgb[k] = color->at(k).toFloat();
        }
        group.gloss = float(look->numberOr("gloss", 0.0));
      }
      mouth.groups.push_back(std::move(group));
    }
    const AosBlobInfo& faces = require(pack, (*m)["faces"].string());
    if (elements(faces) % 3) (*m)["faces"].fail("blob " + faces.name + " is not a multiple of 3");
    mouth.faces = integers<std::uint32_t>(faces, elements(faces), "T*3");
    for (auto v : mouth.faces)
      if (v >= pack.vertexCount) (*m)["faces"].fail("mouth faces name vertex " + std::to_string(v) + ", past V");
    const AosBlobInfo& parts = require(pack, (*m)["faceParts"].string());
    mouth.faceParts = integers<std::uint32_t>(parts, mouth.faces.size() / 3, "one part per mouth face");
    for (auto p : mouth.faceParts)
      if (p < 1 || p > mouth.groups.size())
        (*m)["faceParts"].fail("mouth faceParts names part " + std::to_string(p) + " that does not exist");
    pack.mouth = std::move(mouth);
  }

  std::shared_ptr<const std::vector<std::uint8_t>> m_bytes;
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
    case DType::F32:
    case DType::U32:
    case DType::I32: return 4;
    case DType::F16:
    case DType::U16: return 2;
    case DType::U8:
    case DType::I8: return 1;
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
  return guardRead(sourceName, [&] { return PackReader(std::move(bytes)).read(); });
}

Expected<AosRigPack> readAosRig(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()), path);
}

Expected<std::vector<std::uint8_t>> packAosRig(const nlohmann::ordered_json& headerIn,
                                               const std::vector<AosBlob>& blobs) {
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
      buffers.push_back({{"name", b.name},
                         {"dtype", dtypeName(b.dtype)},
                         {"shape", b.shape},
                         {"offset", offset},
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
