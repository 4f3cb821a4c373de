// Tangents for normal maps where a glTF file gives none, as the glTF 2.0
// specification recommends: MikkTSpace's algorithm (Morten Mikkelsen,
// "Simulation of Wrinkled Surfaces Revisited", 2008; the reference
// implementation is in no Debian package, so this is written from the
// algorithm, not from its code):
//  - per triangle, the directions of increasing u and v (from the positions
//    and texture coordinates), and whether the mapping keeps the triangle's
//    orientation;
//  - per corner, the u direction projected into the plane of the corner's
//    normal, weighted by the corner's angle;
//  - corners are pooled where their vertices are the same (equal position,
//    normal and coordinates, whatever their index) and their triangles'
//    orientations agree; each pool's weighted sum, normalised, is the
//    tangent, and the orientation its sign.
// glTF's texture coordinates run down the image (v = 0 at the top) while
// MikkTSpace's run up: the sign is negated, as three.js does for glTF, so
// that bitangent = cross(normal, tangent.xyz) * tangent.w points up the image.
//
// What is left out of the reference: its split of a vertex's pool by the
// angle between corner tangents (off by default there too), and its
// treatment of degenerate triangles (here they add nothing; a vertex
// only they touch gets a tangent perpendicular to its normal). A vertex
// whose corners disagree in orientation (a mirrored seam welded into one
// index) keeps the larger pool: an indexed mesh holds one tangent a vertex.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace riglens::core {

// Four floats per vertex (xyz unit, w = +1 or -1) for the vertices the
// triangles use; (0, 0, 0, 0) for the others. `uvs`: 2 per vertex.
std::vector<float> mikkTangents(std::span<const float> positions, std::span<const float> normals,
                                std::span<const float> uvs, std::span<const std::uint32_t> triangles);

}  // namespace riglens::core
