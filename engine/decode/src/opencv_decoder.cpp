#include "riglens/decode/opencv_decoder.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <set>
#include <span>
#include <tuple>

#include "riglens/core/base/child_process.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/open/document_files.h"

namespace riglens::decode {
namespace {

// OpenCV's own messages repeat the source line and the function; the last
// line names the node and the problem, which is what a user can act on.
std::string cvMessage(const cv::Exception& e) {
  std::string msg = e.err.empty() ? e.what() : e.err;
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  return msg;
}

void quietOpenCv() {
  static std::once_flag once;
  std::call_once(once, [] { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT); });
}

class OpenCvDecoder final : public core::DecoderSession {
 public:
  OpenCvDecoder(cv::dnn::Net net, std::filesystem::path file) : m_net(std::move(net)), m_file(std::move(file)) {
    m_net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    m_net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    for (const auto& name : m_net.getLayerNames()) {
      const cv::Ptr<cv::dnn::Layer> layer = m_net.getLayer(name);
      for (const cv::Mat& blob : layer->blobs) m_weightBytes += blob.total() * blob.elemSize();
    }
  }

  // The importer's input layer answers for the graph's declared inputs; a
  // graph output is a layer with the output's own name (intermediate layers
  // are named "onnx_node_output_...").
  bool declaresInput(const std::string& name) const override {
    return const_cast<cv::dnn::Net&>(m_net).getLayer(0)->outputNameToIndex(name) >= 0;
  }
  bool declaresOutput(const std::string& name) const override {
    return const_cast<cv::dnn::Net&>(m_net).getLayerId(name) > 0;
  }

  core::Expected<std::vector<core::Tensor>> run(std::span<const core::NamedTensor> feeds,
                                                std::span<const std::string> outputs) override {
    try {
      for (const auto& feed : feeds) {
        if (!declaresInput(feed.name))
          return core::makeError(core::ErrorCode::Invalid, "declares no input " + feed.name);
        std::vector<int> dims = feed.tensor->shape;
        if (feed.tensor->elements() != feed.tensor->data.size())
          return core::makeError(core::ErrorCode::Invalid, "feed " + feed.name + " does not match its shape");
        // setInput keeps a view: the feed outlives forward().
        m_net.setInput(cv::Mat(int(dims.size()), dims.data(), CV_32F, const_cast<float*>(feed.tensor->data.data())),
                       feed.name);
      }
      std::vector<cv::String> names(outputs.begin(), outputs.end());
      for (const auto& name : names)
        if (!declaresOutput(name)) return core::makeError(core::ErrorCode::Invalid, "declares no output " + name);
      std::vector<cv::Mat> mats;
      m_net.forward(mats, names);
      std::vector<core::Tensor> out(mats.size());
      for (std::size_t i = 0; i < mats.size(); ++i) {
        cv::Mat m = mats[i].isContinuous() ? mats[i] : mats[i].clone();
        if (m.type() != CV_32F) m.convertTo(m, CV_32F);
        out[i].shape.assign(m.size.p, m.size.p + m.dims);
        const float* data = m.ptr<float>();
        out[i].data.assign(data, data + m.total());
      }
      return out;
    } catch (const cv::Exception& e) {
      return core::makeError(core::ErrorCode::Invalid, "OpenCV: " + cvMessage(e));
    } catch (const std::exception& e) {
      return core::makeError(core::ErrorCode::Invalid, e.what());
    }
  }

  std::uintmax_t weightBytes() const override { return m_weightBytes; }
  std::string file() const override { return m_file.string(); }

 private:
  cv::dnn::Net m_net;
  std::filesystem::path m_file;
  std::uintmax_t m_weightBytes = 0;
};

// What opening one graph in the child may take: OpenCV holds the weights
// and its own copies of them (a few times the file), and parses at tens of
// MB a second (2 s per MiB is many times that).
constexpr std::uint64_t kProbeMemoryFloor = std::uint64_t(4) << 30;
constexpr std::uint64_t kProbeMemoryPerFileByte = 16;
constexpr auto kProbeTimeFloor = std::chrono::seconds(10);
constexpr auto kProbeTimePerMiB = std::chrono::seconds(2);
constexpr char kOpened = 'K', kRefused = 'E';

// The child's side: OpenCV opens the graph; one tag byte answers, then the
// refusal's message. Sequential (setNumThreads(0)): a thread pool the host
// started does not exist in the fork and must not be waited for.
int openInChild(std::span<const std::uint8_t> bytes, int fd) {
  cv::setNumThreads(0);
  std::string message;
  try {
    cv::dnn::Net net = cv::dnn::readNetFromONNX(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!net.empty()) return core::writeAllTo(fd, &kOpened, 1) ? 0 : 1;
    message = "OpenCV loaded an empty graph";
  } catch (const cv::Exception& e) {
    message = "OpenCV cannot load this graph: " + cvMessage(e);
  } catch (const std::exception& e) {
    message = std::string("cannot load: ") + e.what();
  }
  return core::writeAllTo(fd, &kRefused, 1) && core::writeAllTo(fd, message.data(), message.size()) ? 0 : 1;
}

// A graph is first opened by OpenCV in a child process under limits on
// memory and time: one that crashes the importer, hangs it or exhausts
// memory is refused with the file named, and the host (the viewer) lives on.
core::Expected<void> probeInChild(const std::filesystem::path& file, std::span<const std::uint8_t> bytes) {
  // Graphs this process has seen open cleanly, by path, size and time: a
  // re-open (a document switched back to, a live reload that left the
  // decoders alone) pays the child's second parse once, not every time.
  static std::mutex mutex;
  static std::set<std::tuple<std::string, std::uintmax_t, std::int64_t>> probed;
  const core::FileStamp stamp = core::stampFiles({file}).front();
  const auto key = std::make_tuple(file.string(), stamp.size, stamp.modifiedNs);
  {
    const std::lock_guard lock(mutex);
    if (stamp.exists && probed.count(key)) return {};
  }
  core::ChildLimits limits;
  limits.memoryBytes = std::max<std::uint64_t>(kProbeMemoryFloor, bytes.size() * kProbeMemoryPerFileByte);
  limits.time = kProbeTimeFloor + kProbeTimePerMiB * std::int64_t(bytes.size() >> 20);
  limits.outputBytes = 1 << 16;
  const auto refuse = [&](const std::string& problem) {
    return core::errorAt(core::ErrorCode::Invalid, file.string(), "", problem);
  };
  auto outcome = core::runInChild(limits, [bytes](int fd) { return openInChild(bytes, fd); });
  if (!outcome) return refuse("cannot open the graph in a child process: " + outcome.error().message);
  const auto& answer = outcome->output;
  if (outcome->stop == core::ChildOutcome::Stop::Time)
    return refuse("OpenCV took longer than " +
                  std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limits.time).count()) +
                  " s to open this graph");
  if (outcome->stop != core::ChildOutcome::Stop::None) return refuse("lost OpenCV's ONNX importer");
  if (!answer.empty() && answer[0] == std::uint8_t(kRefused))
    return refuse(std::string(answer.begin() + 1, answer.end()));
  if (answer.empty() || answer[0] != std::uint8_t(kOpened) || !outcome->exitedZero())
    return refuse(outcome->howItEnded("OpenCV's ONNX importer") + "; the graph is not opened");
  const std::lock_guard lock(mutex);
  if (stamp.exists) probed.insert(key);
  return {};
}

}  // namespace

core::Expected<std::unique_ptr<core::DecoderSession>> openOpenCvDecoder(const std::filesystem::path& file) {
  quietOpenCv();
  auto bytes = core::readFileBytes(file);  // the same bounded read (and message) as every loader
  if (!bytes) return bytes.error();
  if (auto probed = probeInChild(file, *bytes); !probed) return probed.error();
  try {
    cv::dnn::Net net = cv::dnn::readNetFromONNX(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    if (net.empty()) return core::errorAt(core::ErrorCode::Invalid, file.string(), "", "OpenCV loaded an empty graph");
    return std::unique_ptr<core::DecoderSession>(std::make_unique<OpenCvDecoder>(std::move(net), file));
  } catch (const cv::Exception& e) {
    return core::errorAt(core::ErrorCode::Invalid, file.string(), "", "OpenCV cannot load this graph: " + cvMessage(e));
  } catch (const std::exception& e) {
    return core::errorAt(core::ErrorCode::Invalid, file.string(), "", std::string("cannot load: ") + e.what());
  }
}

core::DecoderOpener openCvOpener() {
  return [](const std::filesystem::path& file) { return openOpenCvDecoder(file); };
}

}  // namespace riglens::decode
