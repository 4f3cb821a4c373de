// FrameState: a plain snapshot of everything one frame of a rig needs. The
// app's viewport item fills it on the GUI thread and hands a copy to the
// renderer on the render thread; the CLI and the tests fill it directly.
// No Qt, no GPU types.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/rig/distance_tint.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/view/environment.h"
#include "riglens/core/view/look.h"

namespace riglens::render {

// The viewport's background, a display (sRGB) colour: #20262e. The one place
// it is written: the CLI's renders, the viewer's 3D view and (through
// SceneViewport.background) the window behind the QML panels use it.
inline constexpr glm::vec4 kViewportBackground{0.125f, 0.149f, 0.180f, 1.0f};

struct SocketMarker {
  std::string name;
  glm::vec3 position{0.0f};  // world space
};

// What the user chose to see: the settings a frame is drawn with.
struct ViewSettings {
  core::TintMode tint = core::TintMode::Color;
  // Parts as the viewer lists them: a model opened by itself lists its glTF
  // nodes (core::listsNodesAsParts), and these are node indices.
  int highlightPart = -1;
  std::vector<bool> partHidden;  // per part; empty or false = drawn
  bool showGrid = true;
  bool showAxes = true;
  glm::vec4 background = kViewportBackground;
  core::Look look = core::Look::Review;
  // The PBR look's: tone mapping, exposure in stops (colours x 2^exposure
  // before the tone map), and the environment's strength (0: punctual lights alone).
  core::ToneMap toneMap = core::ToneMap::PbrNeutral;
  float exposure = 0.0f;
  float environmentIntensity = 1.0f;
  // The PBR look's environment map (null: core::studioEnvironment), its
  // turn about +y in degrees, and whether it is drawn behind the model.
  std::shared_ptr<const core::EnvironmentMap> environment;
  float environmentRotation = 0.0f;
  bool environmentBackground = false;
};

// The view settings, and what the camera and the posed model add to them.
struct FrameState : ViewSettings {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};  // OpenGL conventions; the renderer corrects per backend
  glm::vec3 eye{0.0f, 0.0f, 10.0f};
  // Splats: their coordinates to the world's (a 3DGS scene's up axis,
  // core::splatToWorld); the splat renderer draws through view * splatModel.
  glm::mat4 splatModel{1.0f};
  std::vector<glm::mat4> partWorlds;  // one per part of the model set on the renderer
  std::vector<glm::vec3> partTints;   // linear RGB per part (part/joint modes)
  // Per part, linear RGB per vertex (core::distanceTints: the compare
  // overlay): when set, the parts it covers are drawn in these colours under
  // the review light whatever the tint mode. Uploaded when the pointer changes.
  std::shared_ptr<const core::VertexTints> vertexTints;
  // A model whose parts are its glTF nodes (core::listsNodesAsParts): per
  // node, what the part fields say per part, applied to the sections each
  // node placed.
  std::vector<glm::vec3> nodeTints;  // part tint: linear RGB per node
  int highlightNode = -1;
  std::vector<bool> nodeHidden;
  std::vector<glm::mat4> bones;       // skinned models: bone matrices (core::boneMatrices)
  std::vector<float> morphWeights;    // skinned models: one per morph slot (core::runMorphWeights)
  std::vector<SocketMarker> sockets;  // drawn in the sockets mode
  // The PBR look's lights, world space: the file's (KHR_lights_punctual,
  // posed), else core::studioLights(); the first kMaxPunctualLights are drawn.
  std::vector<core::PunctualLight> lights;
  float markerSize = 1.0f;     // socket marker half-size, world units
  glm::vec3 gridCenter{0.0f};  // on the ground plane (y = 0), snapped to the step
  float gridExtent = 32.0f;    // half-size of the ground grid, world units
  float gridStep = 4.0f;
};

}  // namespace riglens::render
