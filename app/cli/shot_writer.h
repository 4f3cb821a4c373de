// Where `riglens-cli render` puts its images: one --out PNG; --turntable N
// shots (yaw steps of 360/N) to --out-pattern and/or side by side into
// --strip; and every shot as the frames of one --video (a turntable, or a
// clip played at --fps), with --out then the video's first frame.
#pragma once

#include <QtCore/QSize>
#include <QtCore/QString>
#include <functional>

#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/offscreen_canvas.h"

namespace riglens::cli {

struct Shots {
  int count = 1;
  bool turntable = false;
  QString out, pattern, strip, video;
  int fps = 30;
  bool clip = false;   // the shots are a clip's frames, 1/fps apart, not yaw steps
  bool sweep = false;  // the shots are a character's expression sweep (expression_sweep.h)
};

// The camera's yaw for shot `shot`: turntables step 360/N degrees from `yaw`.
float shotYaw(const Shots& shots, float yaw, int shot);
// The clock for shot `shot`: a clip's frames step 1/fps from `startMs`.
double shotTimeMs(const Shots& shots, double startMs, int shot);

// Renders every shot with the state `stateAt(shot)` and writes them;
// `afterFirst` runs once the first shot is drawn (all on the GPU).
int writeShots(render::OffscreenCanvas& canvas, render::FrameDrawable& drawable, QSize size, const Shots& shots,
               const std::function<render::FrameState(int)>& stateAt, const std::function<void()>& afterFirst = {});

}  // namespace riglens::cli
