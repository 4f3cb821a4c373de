#include "riglens/media/video_reader.h"

#include <memory>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
}

#include "ffmpeg_support.h"

namespace riglens::media {

namespace {

// An opened file, its video stream and a decoder for it, freed together.
struct OpenVideo {
  std::string file;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  int stream = -1;

  ~OpenVideo() {
    avcodec_free_context(&codec);
    avformat_close_input(&format);
  }
  const AVStream* videoStream() const { return format->streams[stream]; }
};

core::Expected<std::unique_ptr<OpenVideo>> openVideo(const std::filesystem::path& path) {
  quietenFfmpegLog();
  auto video = std::make_unique<OpenVideo>();
  video->file = path.string();
  if (int rc = avformat_open_input(&video->format, video->file.c_str(), nullptr, nullptr); rc < 0)
    return mediaError(core::ErrorCode::Io, video->file, "cannot open", rc);
  if (int rc = avformat_find_stream_info(video->format, nullptr); rc < 0)
    return mediaError(core::ErrorCode::Parse, video->file, "reading the streams", rc);
  const AVCodec* decoder = nullptr;
  video->stream = av_find_best_stream(video->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (video->stream < 0)
    return mediaError(core::ErrorCode::Parse, video->file, "finding a video stream", video->stream);
  video->codec = avcodec_alloc_context3(decoder);
  if (!video->codec) return mediaError(core::ErrorCode::Io, video->file, "setting up the decoder", AVERROR(ENOMEM));
  if (int rc = avcodec_parameters_to_context(video->codec, video->videoStream()->codecpar); rc < 0)
    return mediaError(core::ErrorCode::Parse, video->file, "reading the codec parameters", rc);
  if (int rc = avcodec_open2(video->codec, decoder, nullptr); rc < 0)
    return mediaError(core::ErrorCode::Unsupported, video->file, "opening the decoder", rc);
  return video;
}

struct PacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct FrameDeleter {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};

RgbaFrame toRgba(const AVFrame& frame) {
  RgbaFrame out;
  out.width = frame.width;
  out.height = frame.height;
  out.pixels.resize(std::size_t(frame.width) * std::size_t(frame.height) * 4);
  SwsContext* converter = makeColourConverter(frame.width, frame.height, AVPixelFormat(frame.format), AV_PIX_FMT_RGBA);
  std::uint8_t* const rows[1] = {out.pixels.data()};
  const int strides[1] = {frame.width * 4};
  sws_scale(converter, frame.data, frame.linesize, 0, frame.height, rows, strides);
  sws_freeContext(converter);
  return out;
}

}  // namespace

core::Expected<VideoInfo> probeVideo(const std::filesystem::path& path) {
  auto video = openVideo(path);
  if (!video) return video.error();
  const AVStream* stream = (*video)->videoStream();
  VideoInfo info;
  info.width = stream->codecpar->width;
  info.height = stream->codecpar->height;
  info.codec = avcodec_get_name(stream->codecpar->codec_id);
  const char* pixels = av_get_pix_fmt_name(AVPixelFormat(stream->codecpar->format));
  info.pixelFormat = pixels ? pixels : "unknown";
  info.container = (*video)->format->iformat->name;
  if (stream->avg_frame_rate.den) info.fps = av_q2d(stream->avg_frame_rate);
  std::unique_ptr<AVPacket, PacketDeleter> packet(av_packet_alloc());
  std::int64_t lastEnd = 0;
  while (av_read_frame((*video)->format, packet.get()) >= 0) {
    if (packet->stream_index == (*video)->stream) {
      ++info.frameCount;
      lastEnd = std::max(lastEnd, packet->pts + packet->duration);
    }
    av_packet_unref(packet.get());
  }
  // The stream's own duration where the container records it, else where
  // its last frame ends (WebM stores none per stream).
  const std::int64_t ticks = stream->duration > 0 ? stream->duration : lastEnd;
  info.durationSeconds = double(ticks) * av_q2d(stream->time_base);
  return info;
}

core::Expected<RgbaFrame> decodeVideoFrame(const std::filesystem::path& path, std::int64_t index) {
  auto video = openVideo(path);
  if (!video) return video.error();
  OpenVideo& v = **video;
  std::unique_ptr<AVPacket, PacketDeleter> packet(av_packet_alloc());
  std::unique_ptr<AVFrame, FrameDeleter> frame(av_frame_alloc());
  std::int64_t seen = 0;
  bool draining = false;
  while (true) {
    if (!draining) {
      const int read = av_read_frame(v.format, packet.get());
      if (read < 0) {
        draining = true;
        avcodec_send_packet(v.codec, nullptr);
      } else {
        const bool mine = packet->stream_index == v.stream;
        const int sent = mine ? avcodec_send_packet(v.codec, packet.get()) : 0;
        av_packet_unref(packet.get());
        if (sent < 0) return mediaError(core::ErrorCode::Parse, v.file, "decoding", sent);
      }
    }
    int rc = 0;
    while ((rc = avcodec_receive_frame(v.codec, frame.get())) >= 0)
      if (seen++ == index) return toRgba(*frame);
    if (rc == AVERROR_EOF) break;
    if (rc != AVERROR(EAGAIN)) return mediaError(core::ErrorCode::Parse, v.file, "decoding", rc);
  }
  return core::makeError(core::ErrorCode::Usage,
                         v.file + ": no frame " + std::to_string(index) + " (it has " + std::to_string(seen) + ")");
}

}  // namespace riglens::media
