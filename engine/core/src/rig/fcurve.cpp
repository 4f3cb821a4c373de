#include "riglens/core/rig/fcurve.h"

#include <algorithm>
#include <cmath>

namespace riglens::core {
namespace {

struct Point {
  double t, v;
};

// A key as seen by one segment: where it is, and its neighbours for auto tangents.
struct SegmentKeys {
  const Keyframe* a;
  Point aPos;
  Point bPos;
  std::optional<Handle> bInHandle;
  std::optional<Point> prev;
  std::optional<Point> next;
};

double bezierComponent(double p0, double p1, double p2, double p3, double s) {
  const double u = 1.0 - s;
  return u * u * u * p0 + 3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s * p3;
}

// Solves x(s) = t on [0, 1] by bisection (40 steps, as the reference) and
// returns y(s).
double solveBezier(Point p0, Point p1, Point p2, Point p3, double t) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 40; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (bezierComponent(p0.t, p1.t, p2.t, p3.t, mid) < t)
      lo = mid;
    else
      hi = mid;
  }
  return bezierComponent(p0.v, p1.v, p2.v, p3.v, 0.5 * (lo + hi));
}

// The inner control points of a Bezier-shaped segment (the ease presets'
// fixed handles, or explicit / auto-tangent handles).
std::pair<Point, Point> controlPoints(const SegmentKeys& k) {
  const Keyframe& a = *k.a;
  const Point pa = k.aPos, pb = k.bPos;
  const double dt = pb.t - pa.t;
  switch (a.interp) {
    case Interp::EaseIn:  // cubic-bezier(0.42, 0, 1, 1)
      return {{pa.t + 0.42 * dt, pa.v}, pb};
    case Interp::EaseOut:  // cubic-bezier(0, 0, 0.58, 1)
      return {pa, {pb.t - 0.42 * dt, pb.v}};
    case Interp::EaseInOut:  // cubic-bezier(0.42, 0, 0.58, 1)
      return {{pa.t + 0.42 * dt, pa.v}, {pb.t - 0.42 * dt, pb.v}};
    case Interp::Bezier: {
      const double h = dt / 3.0;
      Point p1, p2;
      if (a.outHandle) {
        p1 = {pa.t + (*a.outHandle)[0], pa.v + (*a.outHandle)[1]};
      } else {
        const double slope = k.prev ? (pb.v - k.prev->v) / (pb.t - k.prev->t) : (pb.v - pa.v) / dt;
        p1 = {pa.t + h, pa.v + slope * h};
      }
      if (k.bInHandle) {
        p2 = {pb.t + (*k.bInHandle)[0], pb.v + (*k.bInHandle)[1]};
      } else {
        const double slope = k.next ? (k.next->v - pa.v) / (k.next->t - pa.t) : (pb.v - pa.v) / dt;
        p2 = {pb.t - h, pb.v - slope * h};
      }
      return {p1, p2};
    }
    case Interp::Constant:
    case Interp::Linear: break;
  }
  return {pa, pb};
}

double evaluateSegment(const SegmentKeys& k, double t) {
  const Point pa = k.aPos, pb = k.bPos;
  const double dt = pb.t - pa.t;
  if (dt <= 0) return pb.v;
  switch (k.a->interp) {
    case Interp::Constant: return pa.v;
    case Interp::Linear: return pa.v + (pb.v - pa.v) * ((t - pa.t) / dt);
    default: {
      const auto [p1, p2] = controlPoints(k);
      return solveBezier(pa, p1, p2, pb, t);
    }
  }
}

// The segment from key i (i == n - 1: the wrap segment) with its neighbours.
SegmentKeys segmentKeys(std::span<const Keyframe> keys, std::size_t i, double periodMs, bool wraps) {
  const std::size_t n = keys.size();
  const Keyframe& first = keys.front();
  const Keyframe& last = keys.back();
  if (i == n - 1) {
    // The wrap segment: last -> a synthetic key at the period with the first
    // value and no in-handle; its auto-tangent neighbours are keys[n-2] and
    // keys[1] taken unshifted (a quirk of the reference, kept for parity).
    return SegmentKeys{&last,
                       {last.tMs, last.value},
                       {periodMs, first.value},
                       std::nullopt,
                       Point{keys[n - 2].tMs, keys[n - 2].value},
                       Point{keys[1].tMs, keys[1].value}};
  }
  const Keyframe& a = keys[i];
  const Keyframe& b = keys[i + 1];
  SegmentKeys seg{&a, {a.tMs, a.value}, {b.tMs, b.value}, b.inHandle, std::nullopt, std::nullopt};
  if (i > 0)
    seg.prev = Point{keys[i - 1].tMs, keys[i - 1].value};
  else if (wraps)
    seg.prev = Point{last.tMs - periodMs, last.value};
  if (i + 2 < n)
    seg.next = Point{keys[i + 2].tMs, keys[i + 2].value};
  else if (wraps)
    seg.next = Point{first.tMs + periodMs, first.value};
  return seg;
}

}  // namespace

double sampleKeyframes(std::span<const Keyframe> keys, double tMs, double periodMs, bool looping) {
  const std::size_t n = keys.size();
  if (n == 0) return 0.0;
  const Keyframe& first = keys.front();
  if (n == 1) return first.value;
  const Keyframe& last = keys.back();
  const bool wraps = looping && periodMs > 0;

  double t = tMs;
  if (wraps) t = std::fmod(std::fmod(t, periodMs) + periodMs, periodMs);
  if (t <= first.tMs) return first.value;

  if (t >= last.tMs) {
    if (!(wraps && periodMs > last.tMs)) return last.value;
    return evaluateSegment(segmentKeys(keys, n - 1, periodMs, wraps), t);
  }

  for (std::size_t i = 0; i + 1 < n; ++i)
    if (t >= keys[i].tMs && t <= keys[i + 1].tMs) return evaluateSegment(segmentKeys(keys, i, periodMs, wraps), t);
  return last.value;
}

std::size_t segmentCount(std::span<const Keyframe> keys, double periodMs, bool looping) {
  if (keys.size() < 2) return 0;
  const bool wrapSegment = looping && periodMs > 0 && periodMs > keys.back().tMs;
  return keys.size() - 1 + (wrapSegment ? 1 : 0);
}

SegmentShape describeSegment(std::span<const Keyframe> keys, std::size_t index, double periodMs, bool looping) {
  const SegmentKeys k = segmentKeys(keys, index, periodMs, looping && periodMs > 0);
  SegmentShape shape;
  shape.interp = k.a->interp;
  shape.t0 = k.aPos.t;
  shape.v0 = k.aPos.v;
  shape.t1 = k.bPos.t;
  shape.v1 = k.bPos.v;
  const auto [p1, p2] = controlPoints(k);
  shape.p1t = p1.t;
  shape.p1v = p1.v;
  shape.p2t = p2.t;
  shape.p2v = p2.v;
  return shape;
}

std::vector<std::pair<int, double>> sampleAnimation(const Animation& animation, double tMs) {
  std::vector<std::pair<int, double>> values;
  values.reserve(animation.tracks.size());
  for (const Track& track : animation.tracks)
    values.emplace_back(track.joint, sampleKeyframes(track.keyframes, tMs, animation.periodMs, animation.looping));
  return values;
}

std::vector<double> animationKeyTimes(const Animation& animation) {
  std::vector<double> times;
  for (const Track& track : animation.tracks)
    for (const Keyframe& key : track.keyframes) times.push_back(key.tMs);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

}  // namespace riglens::core
