// Diagnostics: the non-fatal problems a loader found. The model still loads;
// `riglens-cli inspect` and the app list them.
#pragma once

#include <string>
#include <vector>

namespace riglens::core {

struct Diagnostic {
  std::string source;   // the file, e.g. "runs/tank/rig.json"
  std::string pointer;  // JSON pointer into it ("/joints/2/part"), empty if none
  std::string message;  // what is wrong and what the loader did about it

  // "runs/tank/rig.json: /joints/2/part: unknown part 'turet'; joint ignored"
  std::string describe() const {
    std::string out = source;
    if (!pointer.empty()) out += ": " + pointer;
    return out + ": " + message;
  }
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace riglens::core
