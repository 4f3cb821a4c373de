// One loaded ONNX decoder, behind the interface the decode chain uses
// (contract/DECODERS.md A2): what the graph declares, and a run that takes
// named float32 feeds and returns the named outputs as CPU arrays (the
// contract's "demote path": the lift uploads them). engine/decode implements
// it with OpenCV's DNN module; another runtime can replace it without
// touching the chain or the lift.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct Tensor {
  std::vector<int> shape;
  std::vector<float> data;
  std::size_t elements() const;
};

struct NamedTensor {
  std::string name;
  const Tensor* tensor = nullptr;
};

class DecoderSession {
 public:
  virtual ~DecoderSession() = default;
  virtual bool declaresInput(const std::string& name) const = 0;
  virtual bool declaresOutput(const std::string& name) const = 0;
  // Feeds every input the graph declares (an undeclared feed is an error, as
  // is a declared input left unfed) and returns `outputs` in that order.
  virtual Expected<std::vector<Tensor>> run(std::span<const NamedTensor> feeds,
                                            std::span<const std::string> outputs) = 0;
  virtual std::uintmax_t weightBytes() const = 0;  // resident weights
  virtual std::string file() const = 0;            // the graph it loaded
};

// Opens one graph; refuses what the runtime cannot load with a message
// naming the file.
using DecoderOpener = std::function<Expected<std::unique_ptr<DecoderSession>>(const std::filesystem::path&)>;

}  // namespace riglens::core
