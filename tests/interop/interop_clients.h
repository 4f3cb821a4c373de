// Running the independent clients of the interop tests (node scripts in
// RIGLENS_INTEROP_NODE_DIR) and reading their JSON answers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace riglens::test {

struct ValidatorReport {
  int errors = -1;
  std::string messages;
};

// The Khronos glTF-Validator's report for one file; errors == -1 when the
// validator could not run (the reason is in messages).
ValidatorReport validateGltf(const std::string& file);

// Runs three_probe.mjs on `request` (see the script); nullopt + `error` on failure.
std::optional<nlohmann::json> runThreeProbe(const nlohmann::json& request, std::string* error);

// three.js's GLTFExporter writes skinned.glb, morph.glb and textured.glb into
// `folder` (three_export.mjs says what each holds); false + `error` on failure.
bool exportWithThreeJs(const std::string& folder, std::string* error);

// Opens `reportDir`/index.html in Chromium through review_page.mjs, which
// searches, filters, sorts and plays a video there; what it saw, or nullopt
// + `error`. A screenshot of the page goes to `screenshot`.
std::optional<nlohmann::json> browseReviewPage(const std::string& reportDir, const std::string& screenshot,
                                               std::string* error);

}  // namespace riglens::test
