// Expression mapping (contract/CHARACTER.md section 7): ARKit-52 to the 188
// MetaHuman board controls and to a character's rig vector, the default
// ARKit -> GNM table, and expression spaces with the loud refusal of ARKit
// into a GNM space that has no arkit map.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"

namespace riglens::core {

inline constexpr std::size_t kArkitCount = 52;
inline constexpr std::size_t kMhControlCount = 188;
inline constexpr double kGazeFullScale = 20.0 * 3.14159265358979323846 / 180.0;  // radians per unit EyeLook weight

const std::vector<std::string>& arkitNames();  // the order the server sends
const std::vector<std::string>& mhRigNames();  // the 188 board controls

// out = zeros(188), then the linear terms, then the lips-together corrective.
void arkitToMh(std::span<const float> arkit52, std::span<float, kMhControlCount> out);

// Indices into the 188 for a bundle's rig_names; refuses unknown names and an empty list.
Expected<std::vector<int>> gatherFromRigNames(std::span<const std::string> rigNames);

// rest + ARKit delta for each gathered control, clamped per control (range
// has one pair per control) or to one [lo, hi] pair; no rest = zeros. A rest
// whose length does not match the gather is ignored.
void arkitToRig(std::span<const float> arkit52, std::span<const int> gather, std::span<float> out,
                std::span<const float> rest = {}, std::span<const std::pair<float, float>> range = {});

// The default ARKit -> GNM map compiled for one pack's layout. apply() runs
// per frame without allocating; terms outside the layout were dropped when
// it was built and are listed in `dropped`.
class ArkitToGnmMap {
 public:
  struct Options {
    float clamp = 4.0f;
    bool gaze = true;
  };
  static ArkitToGnmMap create(const HeadExtLayout& layout, Options options);
  static ArkitToGnmMap create(const HeadExtLayout& layout) { return create(layout, Options{}); }
  // out: at least layout.dim long; overwritten.
  void apply(std::span<const float> arkit52, std::span<float> out) const;
  const std::vector<std::string>& dropped() const { return m_dropped; }
  std::size_t termCount() const { return m_terms.size(); }

 private:
  struct Term {
    int arkit;
    int slot;
    float gain;
  };
  std::vector<Term> m_terms;
  std::vector<std::string> m_dropped;
  int m_dim = 0, m_gazeStart = -1;
  float m_clamp = 4.0f;
  std::array<int, 8> m_look{};  // EyeLook Down/Up/Out/In Left, Down/Up/In/Out Right
};

enum class ExpressionKind { Arkit52, Gnm, Gnm68 };
const char* expressionKindName(ExpressionKind kind);

struct ExpressionSpace {
  ExpressionKind kind = ExpressionKind::Gnm;
  int dim = 387;
  std::vector<std::string> names;
  struct Segment {
    std::string name;
    int start = 0, count = 0;
  };
  std::vector<Segment> segments;
  std::optional<ArkitToGnmMap> arkitMap;  // GNM spaces only
};

// The GNM space of a pack: segments per region plus gaze; with the default
// arkit map when `withArkitMap`.
ExpressionSpace gnmExpressionSpace(const HeadExtLayout& layout, bool withArkitMap);

// A frame of `inputKind` turned into a rig vector of `space`. ARKit into a
// GNM space without an arkit map is refused, loudly.
Expected<std::vector<float>> toRigVector(const ExpressionSpace& space, ExpressionKind inputKind,
                                         std::span<const float> input, const HeadExtLayout* layout = nullptr);

}  // namespace riglens::core
