// VRM's MToon parameters for one material (core::ToonShading), from either
// version of the format:
//   VRM 1.0  the material's VRMC_materials_mtoon: shadeColorFactor,
//            shadingShiftFactor, shadingToonyFactor, shadeMultiplyTexture;
//   VRM 0.x  extensions.VRM.materialProperties[m] whose shader is
//            "VRM/MToon": _ShadeColor (gamma-encoded, raised to 2.2),
//            _ShadeShift and _ShadeToony (converted to 1.0's factors), and
//            _ShadeTexture,
// each exactly as three-vrm 3.x reads them (VRMMaterialsMToonLoaderPlugin
// and VRMMaterialsV0CompatPlugin), so an avatar shades as it does there.
// Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include "riglens/core/gltf/mesh_materials.h"

namespace riglens::core {

struct ToonReading {
  ToonShading toon;  // enabled = false: not an MToon material
  // The material names a shade texture other than its base colour's: the
  // shade is drawn without it (the caller warns, once per file).
  bool shadeTextureDropped = false;
};

ToonReading readToonShading(const tinygltf::Model& model, int material);

}  // namespace riglens::core
