// KHR_draco_mesh_compression fixtures, for the reader's tests, the validator
// and the fuzz seeds: a height field compressed with Draco's own encoder
// (Debian's libdraco, edgebreaker, quantized positions and normals), its
// accessors declared without bufferViews as the extension asks. Every
// attribute is a function of the grid point it belongs to, so a test can
// check each decoded vertex whatever order Draco puts them in.
#pragma once

#include <draco/compression/encode.h>
#include <draco/mesh/triangle_soup_mesh_builder.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "meshopt_fixture.h"  // assembleGlb

namespace riglens::test {

struct DracoTerrain {
  static constexpr int kSide = 9;  // grid points a side; x and z from 0 to 8
  static double height(double x, double z) { return 0.5 * std::sin(0.7 * x) * std::cos(0.4 * z); }
  static std::array<double, 3> normal(double x, double z) {  // of y = height(x, z)
    const double dx = 0.35 * std::cos(0.7 * x) * std::cos(0.4 * z), dz = -0.2 * std::sin(0.7 * x) * std::sin(0.4 * z);
    const double len = std::sqrt(dx * dx + 1 + dz * dz);
    return {-dx / len, 1 / len, -dz / len};
  }
  static std::array<std::uint8_t, 4> color(int x, int z) {
    return {std::uint8_t(x * 30), std::uint8_t(z * 30), std::uint8_t(255 - x * z), 255};
  }
  int faces = 0;
  nlohmann::json doc;
  std::vector<std::uint8_t> bin;
};

inline DracoTerrain dracoTerrain() {
  DracoTerrain t;
  constexpr int n = DracoTerrain::kSide;
  t.faces = (n - 1) * (n - 1) * 2;
  draco::TriangleSoupMeshBuilder builder;
  builder.Start(t.faces);
  const int pos = builder.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
  const int nrm = builder.AddAttribute(draco::GeometryAttribute::NORMAL, 3, draco::DT_FLOAT32);
  const int col = builder.AddAttribute(draco::GeometryAttribute::COLOR, 4, draco::DT_UINT8, true);
  int face = 0;
  const auto corner = [](int x, int z) {
    struct Corner {
      std::array<float, 3> p, n;
      std::array<std::uint8_t, 4> c;
    } c;
    c.p = {float(x), float(DracoTerrain::height(x, z)), float(z)};
    const auto nn = DracoTerrain::normal(x, z);
    c.n = {float(nn[0]), float(nn[1]), float(nn[2])};
    c.c = DracoTerrain::color(x, z);
    return c;
  };
  const auto triangle = [&](std::array<std::array<int, 2>, 3> at) {
    const auto a = corner(at[0][0], at[0][1]), b = corner(at[1][0], at[1][1]), c = corner(at[2][0], at[2][1]);
    const draco::FaceIndex f(static_cast<std::uint32_t>(face++));
    builder.SetAttributeValuesForFace(pos, f, a.p.data(), b.p.data(), c.p.data());
    builder.SetAttributeValuesForFace(nrm, f, a.n.data(), b.n.data(), c.n.data());
    builder.SetAttributeValuesForFace(col, f, a.c.data(), b.c.data(), c.c.data());
  };
  for (int z = 0; z + 1 < n; ++z)
    for (int x = 0; x + 1 < n; ++x) {  // counter-clockwise seen from +y
      triangle({{{x, z}, {x, z + 1}, {x + 1, z}}});
      triangle({{{x + 1, z}, {x, z + 1}, {x + 1, z + 1}}});
    }
  const std::unique_ptr<draco::Mesh> mesh = builder.Finalize();
  draco::Encoder encoder;
  encoder.SetAttributeQuantization(draco::GeometryAttribute::POSITION, 14);
  encoder.SetAttributeQuantization(draco::GeometryAttribute::NORMAL, 10);
  encoder.SetSpeedOptions(5, 5);
  draco::EncoderBuffer encoded;
  if (!mesh || !encoder.EncodeMeshToBuffer(*mesh, &encoded).ok()) return t;
  t.bin.assign(encoded.data(), encoded.data() + encoded.size());

  float low = 1, high = -1;
  for (int z = 0; z < n; ++z)
    for (int x = 0; x < n; ++x) {
      low = std::min(low, float(DracoTerrain::height(x, z)));
      high = std::max(high, float(DracoTerrain::height(x, z)));
    }
  const auto points = mesh->num_points();
  const auto uid = [&](int att) { return mesh->attribute(att)->unique_id(); };
  t.doc = {{"asset", {{"version", "2.0"}}},
           {"extensionsUsed", {"KHR_draco_mesh_compression"}},
           {"extensionsRequired", {"KHR_draco_mesh_compression"}},
           {"buffers", {{{"byteLength", t.bin.size()}}}},
           {"bufferViews", {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", t.bin.size()}}}},
           {"accessors",
            {{{"componentType", 5126},
              {"count", points},
              {"type", "VEC3"},
              {"min", {0, low, 0}},
              {"max", {n - 1, high, n - 1}}},
             {{"componentType", 5126}, {"count", points}, {"type", "VEC3"}},
             {{"componentType", 5121}, {"count", points}, {"type", "VEC4"}, {"normalized", true}},
             {{"componentType", 5123}, {"count", t.faces * 3}, {"type", "SCALAR"}}}},
           {"meshes",
            {{{"name", "terrain"},
              {"primitives",
               {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}, {"COLOR_0", 2}}},
                 {"indices", 3},
                 {"mode", 4},
                 {"extensions",
                  {{"KHR_draco_mesh_compression",
                    {{"bufferView", 0},
                     {"attributes", {{"POSITION", uid(pos)}, {"NORMAL", uid(nrm)}, {"COLOR_0", uid(col)}}}}}}}}}}}}},
           {"nodes", {{{"mesh", 0}, {"name", "terrain"}}}},
           {"scenes", {{{"nodes", {0}}}}},
           {"scene", 0}};
  return t;
}

}  // namespace riglens::test
