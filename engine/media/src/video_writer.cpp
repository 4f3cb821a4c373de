#include "riglens/media/video_writer.h"

#include <algorithm>
#include <cctype>
#include <random>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
}

#include "ffmpeg_support.h"

namespace riglens::media {

namespace {

namespace fs = std::filesystem;

// What a container extension asks for.
struct Target {
  const char* muxer;          // libavformat's short name
  const char* encoder;        // libavcodec's encoder
  const char* description;    // for messages and --help
  const char* options[4][2];  // encoder options, {name, value}; null name ends
};

// H.264: "veryfast" keeps the encode a small share of a render (a review
// encodes thousands); CRF 18 is visually lossless for rendered frames.
// VP9: constant quality (b = 0), realtime speed 8 with row threading.
constexpr Target kMp4{"mp4", "libx264", "H.264 (libx264) in MP4", {{"preset", "veryfast"}, {"crf", "18"}, {}}};
constexpr Target kWebm{"webm",
                       "libvpx-vp9",
                       "VP9 (libvpx) in WebM",
                       {{"deadline", "realtime"}, {"cpu-used", "8"}, {"crf", "30"}, {"row-mt", "1"}}};

std::string lowerExtension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

core::Expected<const Target*> targetFor(const fs::path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".mp4") return &kMp4;
  if (ext == ".webm") return &kWebm;
  return core::makeError(core::ErrorCode::Usage,
                         path.string() + ": videos are .mp4 (H.264) or .webm (VP9), not '" + ext + "'");
}

core::Error usage(const VideoSpec& spec, const std::string& problem) {
  return core::makeError(core::ErrorCode::Usage, spec.path.string() + ": " + problem);
}

}  // namespace

struct VideoWriter::State {
  fs::path path, temp;
  std::string codecText;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* converter = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  std::int64_t next = 0;
  bool finished = false;

  ~State() {
    sws_freeContext(converter);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    if (format) {
      if (format->pb) avio_closep(&format->pb);
      avformat_free_context(format);
    }
    if (!finished && !temp.empty()) {
      std::error_code ignored;
      fs::remove(temp, ignored);
    }
  }

  core::Error fail(const std::string& step, int code) const {
    return mediaError(core::ErrorCode::Io, path.string(), step, code);
  }

  // Sends a frame (null: the end) and writes every packet the encoder has ready.
  core::Expected<void> encode(const AVFrame* input) {
    if (int rc = avcodec_send_frame(codec, input); rc < 0) return fail("encoding a frame", rc);
    for (;;) {
      const int rc = avcodec_receive_packet(codec, packet);
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return {};
      if (rc < 0) return fail("encoding a frame", rc);
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      if (int w = av_interleaved_write_frame(format, packet); w < 0) return fail("writing a frame", w);
    }
  }

  core::Expected<void> openEncoder(const Target& target, const VideoSpec& spec);
  core::Expected<void> openFile(const Target& target);
};

core::Expected<void> VideoWriter::State::openEncoder(const Target& target, const VideoSpec& spec) {
  const AVCodec* encoder = avcodec_find_encoder_by_name(target.encoder);
  if (!encoder)
    return core::makeError(core::ErrorCode::Unsupported,
                           path.string() + ": this FFmpeg has no " + target.encoder + " encoder");
  codec = avcodec_alloc_context3(encoder);
  stream = avformat_new_stream(format, nullptr);
  if (!codec || !stream) return fail("setting up the encoder", AVERROR(ENOMEM));
  codec->width = spec.width;
  codec->height = spec.height;
  codec->time_base = AVRational{1, spec.fps};
  codec->framerate = AVRational{spec.fps, 1};
  codec->pix_fmt = AV_PIX_FMT_YUV420P;
  codec->gop_size = spec.fps;  // a key frame a second: a browser seeks within one
  codec->colorspace = kVideoColorSpace;
  codec->color_primaries = kVideoPrimaries;
  codec->color_trc = kVideoTransfer;
  codec->color_range = kVideoRange;
  if (format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* options = nullptr;
  for (const auto& option : target.options)
    if (option[0]) av_dict_set(&options, option[0], option[1], 0);
  const int rc = avcodec_open2(codec, encoder, &options);
  av_dict_free(&options);
  if (rc < 0) return fail(std::string("opening the ") + target.encoder + " encoder", rc);
  if (int p = avcodec_parameters_from_context(stream->codecpar, codec); p < 0) return fail("setting up the stream", p);
  stream->time_base = codec->time_base;
  stream->avg_frame_rate = codec->framerate;
  return {};
}

core::Expected<void> VideoWriter::State::openFile(const Target& target) {
  if (int rc = avio_open(&format->pb, temp.c_str(), AVIO_FLAG_WRITE); rc < 0)
    return fail("cannot open '" + temp.string() + "' for writing", rc);
  AVDictionary* options = nullptr;
  // MP4: the index goes to the front once the frames are in, so a browser
  // starts playing before it has the whole file.
  if (std::string(target.muxer) == "mp4") av_dict_set(&options, "movflags", "+faststart", 0);
  const int rc = avformat_write_header(format, &options);
  av_dict_free(&options);
  if (rc < 0) return fail("writing the header", rc);
  return {};
}

core::Expected<std::string> videoCodecFor(const fs::path& path) {
  auto target = targetFor(path);
  if (!target) return target.error();
  return std::string((*target)->description);
}

core::Expected<std::unique_ptr<VideoWriter>> VideoWriter::open(const VideoSpec& spec) {
  quietenFfmpegLog();
  auto target = targetFor(spec.path);
  if (!target) return target.error();
  if (spec.width < 16 || spec.height < 16 || spec.width % 2 || spec.height % 2)
    return usage(spec, "a video's width and height must be even and at least 16 (4:2:0 halves both); got " +
                           std::to_string(spec.width) + "x" + std::to_string(spec.height));
  if (spec.fps < kMinVideoFps || spec.fps > kMaxVideoFps)
    return usage(spec, "the frame rate must be between " + std::to_string(kMinVideoFps) + " and " +
                           std::to_string(kMaxVideoFps) + " fps");
  auto state = std::make_unique<State>();
  state->path = spec.path;
  state->codecText = (*target)->description;
  state->temp = spec.path;
  state->temp += ".part-" + std::to_string(std::random_device{}());
  if (int rc = avformat_alloc_output_context2(&state->format, nullptr, (*target)->muxer, state->temp.c_str()); rc < 0)
    return state->fail("setting up the container", rc);
  if (auto ok = state->openEncoder(**target, spec); !ok) return ok.error();
  state->converter = makeColourConverter(spec.width, spec.height, AV_PIX_FMT_RGBA, AV_PIX_FMT_YUV420P);
  state->frame = av_frame_alloc();
  state->packet = av_packet_alloc();
  if (!state->converter || !state->frame || !state->packet) return state->fail("setting up", AVERROR(ENOMEM));
  state->frame->format = AV_PIX_FMT_YUV420P;
  state->frame->width = spec.width;
  state->frame->height = spec.height;
  if (int rc = av_frame_get_buffer(state->frame, 0); rc < 0) return state->fail("allocating a frame", rc);
  if (auto ok = state->openFile(**target); !ok) return ok.error();
  return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(state)));
}

VideoWriter::VideoWriter(std::unique_ptr<State> state) : m_state(std::move(state)) {}
VideoWriter::~VideoWriter() = default;

core::Expected<void> VideoWriter::addFrame(const std::uint8_t* rgba, std::size_t strideBytes) {
  State& s = *m_state;
  if (s.finished) return core::makeError(core::ErrorCode::Usage, s.path.string() + ": the video is already finished");
  if (int rc = av_frame_make_writable(s.frame); rc < 0) return s.fail("allocating a frame", rc);
  const std::uint8_t* const rows[1] = {rgba};
  const int strides[1] = {int(strideBytes)};
  sws_scale(s.converter, rows, strides, 0, s.codec->height, s.frame->data, s.frame->linesize);
  s.frame->pts = s.next++;
  return s.encode(s.frame);
}

core::Expected<void> VideoWriter::finish() {
  State& s = *m_state;
  if (s.finished) return {};
  if (s.next == 0) return core::makeError(core::ErrorCode::Usage, s.path.string() + ": a video needs a frame");
  if (auto ok = s.encode(nullptr); !ok) return ok;
  if (int rc = av_write_trailer(s.format); rc < 0) return s.fail("writing the index", rc);
  if (int rc = avio_closep(&s.format->pb); rc < 0) return s.fail("closing the file", rc);
  std::error_code ec;
  fs::rename(s.temp, s.path, ec);
  if (ec)
    return core::makeError(core::ErrorCode::Io,
                           s.path.string() + ": cannot move the finished video into place: " + ec.message());
  s.finished = true;
  return {};
}

std::int64_t VideoWriter::framesAdded() const {
  return m_state->next;
}
const std::string& VideoWriter::codecDescription() const {
  return m_state->codecText;
}

}  // namespace riglens::media
