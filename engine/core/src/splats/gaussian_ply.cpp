#include "riglens/core/splats/gaussian_ply.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <map>
#include <optional>
#include <sstream>

#include "riglens/core/base/color.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/splats/spherical_harmonics.h"

namespace riglens::core {
namespace {

struct Property {
  std::string name;
  std::string type;
  std::size_t offset = 0;
  std::size_t size = 0;
};

std::size_t typeSize(const std::string& t) {
  if (t == "float" || t == "float32" || t == "int" || t == "int32" || t == "uint" || t == "uint32") return 4;
  if (t == "double" || t == "float64") return 8;
  if (t == "uchar" || t == "uint8" || t == "char" || t == "int8") return 1;
  if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
  return 0;
}

double readValue(const std::uint8_t* p, const std::string& t) {
  if (t == "float" || t == "float32") {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (t == "double" || t == "float64") {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  if (t == "uchar" || t == "uint8") return *p;
  if (t == "char" || t == "int8") return double(std::int8_t(*p));
  if (t == "short" || t == "int16") {
    std::int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  if (t == "ushort" || t == "uint16") {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  if (t == "int" || t == "int32") {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

Error refuse(std::string_view source, const std::string& what) {
  return errorAt(ErrorCode::Invalid, std::string(source), "", what);
}

// A 3DGS .ply's header: its vertex element's properties and where the rows start.
struct PlyHeader {
  std::size_t count = 0, stride = 0, dataStart = 0;
  std::map<std::string, Property> props;
  std::optional<SplatUp> up;  // a "comment up +y" / "comment up -y" line
};

// Reads the header's property lines for the vertex element (the only
// element with rows: one before it is refused, one after it ignored).
Expected<void> readHeaderLines(std::istringstream& header, std::string_view source, std::string* format, PlyHeader& h) {
  std::string line;
  bool inVertex = false, sawVertex = false;
  while (std::getline(header, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "format") {
      words >> *format;
    } else if (word == "comment") {
      std::string key, value;
      words >> key >> value;
      if (key == "up" && (value == "+y" || value == "-y")) h.up = value == "+y" ? SplatUp::PlusY : SplatUp::MinusY;
    } else if (word == "element") {
      std::string name;
      std::size_t elementCount = 0;
      words >> name >> elementCount;
      if (!words) return refuse(source, "element line '" + line + "' has no count");
      if (sawVertex && inVertex) return refuse(source, "elements after 'vertex' are not supported");
      inVertex = name == "vertex";
      if (inVertex) {
        sawVertex = true;
        h.count = elementCount;
      } else if (elementCount > 0) {  // its rows would come before the vertices
        return refuse(source, "element '" + name + "' before 'vertex' is not supported");
      }
    } else if (word == "property" && inVertex) {
      std::string type, name;
      words >> type >> name;
      if (type == "list") return refuse(source, "list properties in the vertex element are not supported");
      const std::size_t size = typeSize(type);
      if (!size) return refuse(source, "property " + name + " has unknown type " + type);
      if (h.props.count(name)) return refuse(source, "property " + name + " is declared twice");
      h.props[name] = {name, type, h.stride, size};
      h.stride += size;
    }
  }
  if (!sawVertex) h.stride = 0;
  return {};
}

Expected<PlyHeader> readPlyHeader(std::span<const std::uint8_t> bytes, std::string_view source) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()),
                              std::min<std::size_t>(bytes.size(), 64 * 1024));
  if (text.substr(0, 4) != "ply\n" && text.substr(0, 5) != "ply\r\n")
    return refuse(source, "not a .ply file (no 'ply' magic)");
  const auto end = text.find("end_header");
  if (end == std::string_view::npos) return refuse(source, "no end_header in the first 64 KiB");
  const auto endLine = text.find('\n', end);
  if (endLine == std::string_view::npos)
    return refuse(source, "the end_header line at byte " + std::to_string(end) + " does not end");
  PlyHeader h;
  h.dataStart = endLine + 1;
  std::istringstream header(std::string(text.substr(0, end)));
  std::string format;
  if (auto read = readHeaderLines(header, source, &format, h); !read) return read.error();
  if (format != "binary_little_endian")
    return refuse(source, "format '" + format + "' is not supported (binary_little_endian only)");
  if (h.stride == 0) return refuse(source, "no vertex element");
  for (const char* need : {"x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1", "scale_2",
                           "rot_0", "rot_1", "rot_2", "rot_3"})
    if (!h.props.count(need)) return refuse(source, std::string("missing property ") + need);
  const std::size_t available = bytes.size() - std::min(bytes.size(), h.dataStart);
  if (h.count > available / h.stride)
    return refuse(source, "the header declares " + std::to_string(h.count) + " gaussians but the file holds data for " +
                              std::to_string(available / h.stride));
  return h;
}

// A row's values, in this order, then the f_rest_ coefficients.
enum Field { X, Y, Z, Dc0, Dc1, Dc2, Opacity, Scale0, Scale1, Scale2, Rot0, Rot1, Rot2, Rot3, kFields };

// Gaussian `i` (its row at byte `at`) appended to the cloud: covariance from
// scale and rotation, position, colour and opacity, SH coefficients.
Expected<void> appendGaussian(GaussianCloud& cloud, const std::vector<double>& v, std::size_t rest, std::size_t i,
                              std::size_t at, std::string_view source) {
  const glm::dvec3 scale(std::exp(v[Scale0]), std::exp(v[Scale1]), std::exp(v[Scale2]));
  glm::dquat q(v[Rot0], v[Rot1], v[Rot2], v[Rot3]);
  const double len = glm::length(q);
  q = len > 0 ? q / len : glm::dquat(1, 0, 0, 0);
  const glm::dmat3 r = glm::mat3_cast(q);
  glm::dmat3 s(0.0);
  s[0][0] = scale.x;
  s[1][1] = scale.y;
  s[2][2] = scale.z;
  const glm::dmat3 m = r * s;
  const glm::dmat3 sigma = m * glm::transpose(m);
  const std::string where = "gaussian " + std::to_string(i) + " (byte " + std::to_string(at) + ")";
  for (auto [a, b] : {std::pair{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}) {
    const double c = sigma[b][a];
    // exp() of a large log-scale: a gaussian too big for a float is a broken file, not a splat.
    if (!(std::abs(c) <= 1e38)) return refuse(source, where + ": its scale overflows a float");
    cloud.covariance.push_back(float(c));
  }
  for (int k = 0; k < 3; ++k) {
    if (std::abs(v[std::size_t(X + k)]) > 1e30) return refuse(source, where + ": its position is out of range");
    cloud.positions.push_back(float(v[std::size_t(X + k)]));
  }
  const double opacity = 1.0 / (1.0 + std::exp(-v[Opacity]));
  cloud.color.push_back(packRgba(float(std::clamp(0.5 + double(kShC0) * v[Dc0], -1.0, 2.0)),
                                 float(std::clamp(0.5 + double(kShC0) * v[Dc1], -1.0, 2.0)),
                                 float(std::clamp(0.5 + double(kShC0) * v[Dc2], -1.0, 2.0)), float(opacity)));
  for (std::size_t k = 0; k < rest; ++k) cloud.shRest.push_back(float(std::clamp(v[kFields + k], -1e30, 1e30)));
  if (rest > 0)
    for (int k = 0; k < 3; ++k) cloud.shDc.push_back(float(std::clamp(v[std::size_t(Dc0 + k)], -1e30, 1e30)));
  return {};
}

}  // namespace

Expected<GaussianCloud> parseGaussianPly(std::span<const std::uint8_t> bytes, std::string_view source) {
  auto header = readPlyHeader(bytes, source);
  if (!header) return header.error();
  const PlyHeader& h = *header;
  std::size_t rest = 0;
  while (h.props.count("f_rest_" + std::to_string(rest))) ++rest;
  GaussianCloud cloud;
  cloud.count = h.count;
  cloud.declaredUp = h.up;
  const std::map<std::size_t, int> degrees{{0, 0}, {9, 1}, {24, 2}, {45, 3}};
  if (!degrees.count(rest))
    return refuse(source, std::to_string(rest) + " f_rest properties match no SH degree (0, 9, 24 or 45)");
  cloud.shDegree = degrees.at(rest);
  cloud.positions.reserve(h.count * 3);
  cloud.covariance.reserve(h.count * 6);
  cloud.color.reserve(h.count);
  cloud.shRest.reserve(h.count * rest);
  // Property lookups once, not per row.
  const char* names[kFields] = {"x",       "y",       "z",       "f_dc_0", "f_dc_1", "f_dc_2", "opacity",
                                "scale_0", "scale_1", "scale_2", "rot_0",  "rot_1",  "rot_2",  "rot_3"};
  std::vector<const Property*> fields;
  for (const char* name : names) fields.push_back(&h.props.at(name));
  for (std::size_t k = 0; k < rest; ++k) fields.push_back(&h.props.at("f_rest_" + std::to_string(k)));
  std::vector<double> v(fields.size());
  for (std::size_t i = 0; i < h.count; ++i) {
    const std::size_t at = h.dataStart + i * h.stride;
    const std::uint8_t* row = bytes.data() + at;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      v[f] = readValue(row + fields[f]->offset, fields[f]->type);
      if (!std::isfinite(v[f]))
        return refuse(source, "gaussian " + std::to_string(i) + " (byte " + std::to_string(at + fields[f]->offset) +
                                  "): " + fields[f]->name + " is not finite");
    }
    if (auto added = appendGaussian(cloud, v, rest, i, at, source); !added) return added.error();
  }
  return cloud;
}

Bounds cloudBounds(const GaussianCloud& cloud) {
  Bounds bounds;
  for (std::size_t i = 0; i < cloud.count; ++i)
    bounds.include({cloud.positions[i * 3], cloud.positions[i * 3 + 1], cloud.positions[i * 3 + 2]});
  return bounds;
}

Expected<GaussianCloud> readGaussianPly(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return parseGaussianPly(*bytes, path.string());
}

std::vector<std::uint8_t> encodeGaussianPly(std::span<const RawGaussian> gaussians, int shDegree, SplatUp up) {
  const int rest = 3 * ((shDegree + 1) * (shDegree + 1) - 1);
  std::ostringstream header;
  header << "ply\nformat binary_little_endian 1.0\n";
  header << "comment up " << (up == SplatUp::PlusY ? "+y" : "-y") << "\n";
  header << "element vertex " << gaussians.size() << "\n";
  for (const char* p : {"x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"})
    header << "property float " << p << "\n";
  for (int k = 0; k < rest; ++k) header << "property float f_rest_" << k << "\n";
  for (const char* p : {"opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"})
    header << "property float " << p << "\n";
  header << "end_header\n";
  const std::string h = header.str();
  std::vector<std::uint8_t> out(h.begin(), h.end());
  for (const RawGaussian& g : gaussians) {
    std::vector<float> row{g.position[0], g.position[1], g.position[2], 0, 0, 0, g.dc[0], g.dc[1], g.dc[2]};
    for (int k = 0; k < rest; ++k) row.push_back(std::size_t(k) < g.shRest.size() ? g.shRest[std::size_t(k)] : 0.0f);
    row.insert(row.end(), {g.opacityLogit, g.logScale[0], g.logScale[1], g.logScale[2], g.rotation[0], g.rotation[1],
                           g.rotation[2], g.rotation[3]});
    const auto* p = reinterpret_cast<const std::uint8_t*>(row.data());
    out.insert(out.end(), p, p + row.size() * 4);
  }
  return out;
}

}  // namespace riglens::core
