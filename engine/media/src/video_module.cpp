// libriglens-media.so: riglens::media's VideoWriter behind the table
// (video_module.h).
#include "riglens/media/video_module.h"

#include <memory>
#include <utility>

namespace riglens::media {

namespace {

VideoWriter* writer(void* opaque) {
  return static_cast<VideoWriter*>(opaque);
}
const VideoWriter* writer(const void* opaque) {
  return static_cast<const VideoWriter*>(opaque);
}

core::Expected<void*> openWriter(const VideoSpec& spec) {
  auto opened = VideoWriter::open(spec);
  if (!opened) return opened.error();
  return static_cast<void*>(std::move(opened).value().release());
}

const VideoModule kModule{
    kVideoModuleAbi,
    &videoCodecFor,
    &openWriter,
    [](void* w, const std::uint8_t* rgba, std::size_t stride) { return writer(w)->addFrame(rgba, stride); },
    [](void* w) { return writer(w)->finish(); },
    [](const void* w) { return writer(w)->framesAdded(); },
    [](const void* w) -> const std::string& { return writer(w)->codecDescription(); },
    [](void* w) { delete writer(w); },
};

}  // namespace

}  // namespace riglens::media

const void* riglens_video_module() {
  return &riglens::media::kModule;
}
