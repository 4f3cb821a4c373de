#include "riglens/samples/voxel_volume.h"

#include <algorithm>

namespace riglens::samples {

VoxelVolume::VoxelVolume(int nx, int ny, int nz)
    : m_n{nx, ny, nz}, m_voxels(static_cast<std::size_t>(nx) * ny * nz, 0) {}

void VoxelVolume::set(int x, int y, int z, std::uint32_t rgb) {
  if (inside(x, y, z)) m_voxels[index(x, y, z)] = rgb == 0 ? 0 : (rgb | kFilledBit);
}

void VoxelVolume::fillBox(std::array<int, 3> lo, std::array<int, 3> hi, std::uint32_t rgb) {
  for (int z = std::max(lo[2], 0); z < std::min(hi[2], m_n[2]); ++z)
    for (int y = std::max(lo[1], 0); y < std::min(hi[1], m_n[1]); ++y)
      for (int x = std::max(lo[0], 0); x < std::min(hi[0], m_n[0]); ++x) set(x, y, z, rgb);
}

void VoxelVolume::fillEllipsoid(std::array<double, 3> c, std::array<double, 3> r, std::uint32_t rgb) {
  for (int z = 0; z < m_n[2]; ++z)
    for (int y = 0; y < m_n[1]; ++y)
      for (int x = 0; x < m_n[0]; ++x) {
        const double dx = (x + 0.5 - c[0]) / r[0], dy = (y + 0.5 - c[1]) / r[1], dz = (z + 0.5 - c[2]) / r[2];
        if (dx * dx + dy * dy + dz * dz <= 1.0) set(x, y, z, rgb);
      }
}

std::size_t VoxelVolume::filledCount() const {
  return static_cast<std::size_t>(std::count_if(m_voxels.begin(), m_voxels.end(), [](auto v) { return v != 0; }));
}

std::array<float, 3> voxelColor(std::uint32_t rgb) {
  return {static_cast<float>((rgb >> 16) & 0xff) / 255.0f, static_cast<float>((rgb >> 8) & 0xff) / 255.0f,
          static_cast<float>(rgb & 0xff) / 255.0f};
}

}  // namespace riglens::samples
