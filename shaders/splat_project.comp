#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Splat projection: each gaussian of the sink -> screen centre, 2D conic
// (EWA: J W Sigma W^T J^T + 0.3 px^2 low-pass, inverted), radius (3 sigma of
// the major axis), and a depth key for the back-to-front sort. Culled
// splats (transparent, behind the camera, off screen) get a degenerate
// radius and the largest key. Zwicker et al., "EWA Volume Splatting" (2001);
// Kerbl et al., "3D Gaussian Splatting" (2023).
layout(local_size_x = kProjectGroupSize) in;

layout(std430, binding = kProjectCenters) readonly buffer Centers { vec4 centers[]; };
layout(std430, binding = kProjectCovA) readonly buffer CovA { vec4 covA[]; };
layout(std430, binding = kProjectCovB) readonly buffer CovB { vec4 covB[]; };
layout(std430, binding = kProjectColors) readonly buffer Colors { uint colors[]; };
layout(std430, binding = kProjectProjected) writeonly buffer Projected { vec4 projected[]; };  // 2 per splat: (ndc x, ndc y, radius px, color bits), (conic a, b, c, ndc depth)
layout(std430, binding = kProjectKeys) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = kProjectValues) writeonly buffer Values { uint values[]; };
// Degree 1-3 clouds: per splat f_dc (3) then f_rest (3K, channel-major), the
// colour evaluated for this view (core::shColor is the CPU reference).
layout(std430, binding = kProjectSh) readonly buffer Sh { float sh[]; };

vec3 shColor(uint i, vec3 dir)
{
    const float C0 = 0.28209479177387814, C1 = 0.4886025119029199;
    float x = dir.x, y = dir.y, z = dir.z, xx = x * x, yy = y * y, zz = z * z;
    float basis[15] = float[15](-C1 * y, C1 * z, -C1 * x,
        1.0925484305920792 * x * y, -1.0925484305920792 * y * z, 0.31539156525252005 * (2.0 * zz - xx - yy),
        -1.0925484305920792 * x * z, 0.5462742152960396 * (xx - yy),
        -0.5900435899266435 * y * (3.0 * xx - yy), 2.890611442640554 * x * y * z,
        -0.4570457994644658 * y * (4.0 * zz - xx - yy), 0.3731763325901154 * z * (2.0 * zz - 3.0 * xx - 3.0 * yy),
        -0.4570457994644658 * x * (4.0 * zz - xx - yy), 1.445305721320277 * z * (xx - yy),
        -0.5900435899266435 * x * (xx - 3.0 * yy));
    uint degree = u.count.z, K = (degree + 1u) * (degree + 1u) - 1u, base = i * u.count.w;
    vec3 rgb;
    for (uint c = 0u; c < 3u; ++c) {
        float v = 0.5 + C0 * sh[base + c];
        for (uint k = 0u; k < K; ++k)
            v += basis[k] * sh[base + 3u + c * K + k];
        rgb[c] = v;
    }
    return max(rgb, vec3(0.0));
}

// The compute rasteriser's 16-bit logarithmic depth per splat (0xffffffff:
// culled), for splat_tile_count/emit.comp to skip culled splats.
layout(std430, binding = kProjectTileDepth) writeonly buffer TileDepth { uint tileDepth[]; };

void cull(uint i)
{
    if (u.tiles.z != 0u)
        tileDepth[i] = 0xffffffffu;
    projected[2u * i] = vec4(0.0, 0.0, 0.0, 0.0);
    projected[2u * i + 1u] = vec4(0.0);
    keys[i] = 0xffffu;  // last (the quads' keys are 16-bit); a culled quad draws nothing
    values[i] = i;
}

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= u.count.x)
        return;
    uint color = colors[i];
    if ((color >> 24) == 0u) { cull(i); return; }
    vec4 pv = u.view * vec4(centers[i].xyz, 1.0);
    float depth = -pv.z;
    // Nearer than the camera's near plane (where the meshes are clipped):
    // culled, as the 3DGS rasteriser culls nearer than 0.2 m and gsplat
    // nearer than its near plane.
    if (depth <= u.depthKey.x) { cull(i); return; }
    vec4 clip = u.proj * pv;
    vec2 ndc = clip.xy / clip.w;
    vec4 a = covA[i];
    vec4 b = covB[i];
    mat3 sigma = mat3(a.x, a.y, a.z,  a.y, a.w, b.x,  a.z, b.x, b.y);
    float fx = u.viewport.z, fy = u.viewport.w;
    // The Jacobian where the centre's direction is clamped to 1.3 times the
    // view's half-angle tangents (3DGS's limx/limy; core::projectSplat does
    // the same): a splat beside the camera, just past its near plane, would
    // otherwise stretch over the whole screen.
    const float kJacobianReach = 1.3;
    vec2 limit = kJacobianReach * 0.5 * u.viewport.xy / vec2(fx, fy);
    vec2 t = clamp(pv.xy / depth, -limit, limit) * depth;
    mat3 J = mat3(fx / depth, 0.0, 0.0,
                  0.0, fy / depth, 0.0,
                  fx * t.x / (depth * depth), fy * t.y / (depth * depth), 0.0);
    mat3 W = mat3(u.view);
    mat3 T = J * W;
    mat3 cov = T * sigma * transpose(T);
    float c00 = cov[0][0] + 0.3, c01 = cov[0][1], c11 = cov[1][1] + 0.3;
    float det = c00 * c11 - c01 * c01;
    if (det <= 0.0) { cull(i); return; }
    float mid = 0.5 * (c00 + c11);
    float lambda = mid + sqrt(max(0.1, mid * mid - det));
    float radius = ceil(3.0 * sqrt(lambda));
    vec2 px = (ndc * 0.5 + 0.5) * u.viewport.xy;
    // Non-finite input (a NaN centre or covariance) is culled, not drawn over every tile.
    if (isnan(radius) || isinf(radius) || any(isnan(px)) || any(isinf(px))) { cull(i); return; }
    if (px.x + radius < 0.0 || px.y + radius < 0.0 || px.x - radius > u.viewport.x || px.y - radius > u.viewport.y) { cull(i); return; }
    // The view's colour, for the splats that survived the culls alone: a
    // degree-3 splat reads 192 bytes of coefficients, four times the rest.
    if (u.count.z > 0u) {
        vec3 eye = -transpose(mat3(u.view)) * u.view[3].xyz;
        vec3 dir = normalize(centers[i].xyz - eye);
        color = packUnorm4x8(vec4(clamp(shColor(i, dir), 0.0, 1.0), unpackUnorm4x8(color).a));
    }
    projected[2u * i] = vec4(ndc, radius, uintBitsToFloat(color));
    // The centre's depth in the backend's NDC (proj is already corrected), so
    // the quads depth-test against the voxel renderer's depth buffer.
    projected[2u * i + 1u] = vec4(c11 / det, -c01 / det, c00 / det, clip.z / clip.w);
    // 16-bit logarithmic depth (a relative step of ~1e-4 over the camera's
    // range), sorted in two radix passes: back to front, the farthest first,
    // for the quads; front to back for the compute tiles, which emit their
    // tile keys in that order (culled splats come last either way).
    uint logDepth = uint(clamp(log(depth / u.depthKey.x) * u.depthKey.y, 0.0, 65535.0));
    keys[i] = u.tiles.z == kTilesDrawn ? logDepth : 65535u - logDepth;
    values[i] = i;
    if (u.tiles.z != 0u)
        tileDepth[i] = logDepth;
}
