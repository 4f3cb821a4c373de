// A dense voxel volume of opaque RGB voxels: what a part is sculpted from in
// the shared volume's coordinates. Voxel (x, y, z) occupies [x, x+1] x
// [y, y+1] x [z, z+1]; y is up, +z forward. Used to generate the sample runs
// and test fixtures; the viewer itself never sees voxels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace riglens::samples {

class VoxelVolume {
 public:
  VoxelVolume(int nx, int ny, int nz);

  int nx() const { return m_n[0]; }
  int ny() const { return m_n[1]; }
  int nz() const { return m_n[2]; }

  bool inside(int x, int y, int z) const {
    return x >= 0 && y >= 0 && z >= 0 && x < m_n[0] && y < m_n[1] && z < m_n[2];
  }
  // 0 = empty; otherwise 0xRRGGBB with bit 24 set so black is not empty.
  std::uint32_t at(int x, int y, int z) const { return inside(x, y, z) ? m_voxels[index(x, y, z)] : 0; }
  bool filled(int x, int y, int z) const { return at(x, y, z) != 0; }

  void set(int x, int y, int z, std::uint32_t rgb);
  // Fills [x0, x1) x [y0, y1) x [z0, z1), clipped to the volume.
  void fillBox(std::array<int, 3> lo, std::array<int, 3> hi, std::uint32_t rgb);
  // Fills voxels whose centre lies inside the ellipsoid.
  void fillEllipsoid(std::array<double, 3> centre, std::array<double, 3> radii, std::uint32_t rgb);

  std::size_t filledCount() const;

  static constexpr std::uint32_t kFilledBit = 1u << 24;

 private:
  std::size_t index(int x, int y, int z) const { return (static_cast<std::size_t>(z) * m_n[1] + y) * m_n[0] + x; }
  std::array<int, 3> m_n;
  std::vector<std::uint32_t> m_voxels;
};

// #rrggbb bytes / 255 as linear values (the contract's COLOR_0: no sRGB decode).
std::array<float, 3> voxelColor(std::uint32_t rgb);

}  // namespace riglens::samples
