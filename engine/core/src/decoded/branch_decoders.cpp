#include "riglens/core/decoded/branch_decoders.h"

#include <algorithm>
#include <chrono>

#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/bundle.h"

namespace riglens::core {
namespace {

std::string shapeText(const std::vector<int>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The contract fixes [1, C, H, W] for geom_uv and color_uv; a graph that
// returns the same elements in another rank is refused too, since the lift
// reads them channel-major.
Expected<void> checkMap(const Tensor& t, const std::string& file, const char* name, int channels, int res) {
  const std::vector<int> want{1, channels, res, res};
  if (t.shape != want)
    return errorAt(
        ErrorCode::Invalid, file, "",
        std::string("output ") + name + " has shape " + shapeText(t.shape) + "; the lift needs " + shapeText(want));
  return {};
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::size_t Tensor::elements() const {
  std::size_t n = shape.empty() ? 0 : 1;
  for (int d : shape) n *= std::size_t(std::max(d, 0));
  return n;
}

Expected<BranchDecoders> BranchDecoders::open(const Bundle& bundle, const DecoderBranch& spec,
                                              const DecoderOpener& opener, bool preferFp16, Diagnostics& notes) {
  BranchDecoders b;
  b.m_spec = spec;
  const auto openOne = [&](const std::string& fp32, const std::string& fp16,
                           bool& usedFp16) -> Expected<std::unique_ptr<DecoderSession>> {
    usedFp16 = false;
    if (preferFp16 && !fp16.empty()) {
      auto session = opener(bundle.folder / fp16);
      if (session) {
        usedFp16 = true;
        return session;
      }
      notes.push_back({(bundle.folder / fp16).string(), "",
                       spec.name + ": the fp16 decoder did not load (" + session.error().message +
                           "); using the fp32 graph " + fp32});
    }
    return opener(bundle.folder / fp32);
  };
  bool unused = false;
  if (!spec.trunk.empty()) {
    auto trunk = openOne(spec.trunk, "", unused);  // the trunk is always fp32 (A3)
    if (!trunk) return trunk.error();
    b.m_trunk = std::move(trunk).value();
    if (!b.m_trunk->declaresInput("rig_params") || !b.m_trunk->declaresOutput("code"))
      return errorAt(ErrorCode::Invalid, b.m_trunk->file(), "", "a trunk takes rig_params and emits code");
    b.m_regionFactored = b.m_trunk->declaresOutput("zpack");
  }
  auto geom = openOne(spec.geom, spec.geomFp16, b.m_geomFp16);
  if (!geom) return geom.error();
  b.m_geom = std::move(geom).value();
  auto appr = openOne(spec.appr, spec.apprFp16, b.m_apprFp16);
  if (!appr) return appr.error();
  b.m_appr = std::move(appr).value();
  const std::string geomInput = spec.fused ? "rig_params" : "code";
  if (!b.m_geom->declaresInput(geomInput))
    return errorAt(ErrorCode::Invalid, b.m_geom->file(), "",
                   "declares no input " + geomInput + (spec.fused ? " (a fused geom takes the rig)" : ""));
  for (const char* out : {"geom_uv", "code"})
    if ((spec.fused || std::string(out) == "geom_uv") && !b.m_geom->declaresOutput(out))
      return errorAt(ErrorCode::Invalid, b.m_geom->file(), "", std::string("declares no output ") + out);
  for (const char* in : {"code", "plucker"})
    if (!b.m_appr->declaresInput(in))
      return errorAt(ErrorCode::Invalid, b.m_appr->file(), "", std::string("declares no input ") + in);
  if (!b.m_appr->declaresOutput("color_uv"))
    return errorAt(ErrorCode::Invalid, b.m_appr->file(), "", "declares no output color_uv");
  for (DecoderSession* s : {b.m_geom.get(), b.m_appr.get()})
    if (s->declaresInput("zpack") && !b.m_regionFactored)
      return errorAt(ErrorCode::Invalid, s->file(), "",
                     "takes zpack, but the branch's trunk emits none (optional inputs are fed only when supplied)");
  return b;
}

Expected<std::vector<Tensor>> BranchDecoders::runSession(DecoderSession& session, std::vector<NamedTensor> feeds,
                                                         std::vector<std::string> outputs, const char* role) {
  // Optional I/O (A2): zpack is fed iff this graph declares it.
  if (m_regionFactored && session.declaresInput("zpack")) feeds.push_back({"zpack", &m_zpack});
  auto out = session.run(feeds, outputs);
  if (!out) return errorAt(ErrorCode::Invalid, session.file(), "", std::string(role) + ": " + out.error().message);
  return out;
}

Expected<void> BranchDecoders::runGeometry(std::span<const float> rig) {
  Tensor params{{1, m_spec.rigDim}, std::vector<float>(std::size_t(m_spec.rigDim), 0.0f)};
  std::copy_n(rig.begin(), std::min(rig.size(), params.data.size()), params.data.begin());
  auto start = std::chrono::steady_clock::now();
  if (m_trunk) {
    std::vector<std::string> outs{"code"};
    if (m_regionFactored) outs.push_back("zpack");
    auto out = m_trunk->run(std::vector<NamedTensor>{{"rig_params", &params}}, outs);
    if (!out) return errorAt(ErrorCode::Invalid, m_trunk->file(), "", "trunk: " + out.error().message);
    m_code = std::move((*out)[0]);
    if (m_regionFactored) m_zpack = std::move((*out)[1]);
    ++m_runs.trunk;
    m_runs.trunkMs = msSince(start);
    start = std::chrono::steady_clock::now();
  }
  const int res = m_spec.uvRes;
  if (m_spec.fused) {
    auto out = runSession(*m_geom, {{"rig_params", &params}}, {"code", "geom_uv"}, "geom");
    if (!out) return out.error();
    m_code = std::move((*out)[0]);
    if (auto ok = checkMap((*out)[1], m_geom->file(), "geom_uv", 11, res); !ok) return ok;
    m_geomUv = std::move((*out)[1]);
  } else {
    auto out = runSession(*m_geom, {{"code", &m_code}}, {"geom_uv"}, "geom");
    if (!out) return out.error();
    if (auto ok = checkMap((*out)[0], m_geom->file(), "geom_uv", 11, res); !ok) return ok;
    m_geomUv = std::move((*out)[0]);
  }
  ++m_runs.geom;
  m_runs.geomMs = msSince(start);
  m_colorUv = {};
  return {};
}

Expected<void> BranchDecoders::runAppearance(std::vector<float> plucker) {
  const int res = m_spec.uvRes;
  if (m_code.data.empty()) return makeError(ErrorCode::Invalid, m_spec.name + ": appearance before any geometry");
  if (plucker.size() != 6 * std::size_t(res) * std::size_t(res))
    return makeError(ErrorCode::Invalid, m_spec.name + ": the plucker grid must be 6 x uv_res x uv_res");
  const Tensor rays{{1, 6, 1, res, res}, std::move(plucker)};
  const auto start = std::chrono::steady_clock::now();
  auto out = runSession(*m_appr, {{"code", &m_code}, {"plucker", &rays}}, {"color_uv"}, "appr");
  if (!out) return out.error();
  if (auto ok = checkMap((*out)[0], m_appr->file(), "color_uv", 3, res); !ok) return ok;
  m_colorUv = std::move((*out)[0]);
  ++m_runs.appr;
  m_runs.apprMs = msSince(start);
  return {};
}

std::uintmax_t BranchDecoders::weightBytes() const {
  std::uintmax_t sum = 0;
  for (const auto* s : {m_trunk.get(), m_geom.get(), m_appr.get()})
    if (s) sum += s->weightBytes();
  return sum;
}

std::vector<std::string> BranchDecoders::sessionFiles() const {
  std::vector<std::string> out;
  for (const auto* s : {m_trunk.get(), m_geom.get(), m_appr.get()})
    if (s) out.push_back(s->file());
  return out;
}

}  // namespace riglens::core
