// Diagnostics: the problems a loader found that did not stop the load. The
// model still loads; `riglens-cli inspect` and the viewer's Problems panel
// list them (severity, file, JSON pointer, message) and the panel selects the
// part or joint a problem concerns.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace riglens::core {

enum class Severity {
  Warning,  // suspicious, or ignored by the contract's rules (an unknown parent, a key outside the
            // period)
  Error,    // something in the files is broken and was left out (a part mesh that cannot be read)
  Info,     // how the loader read something, for the record (a decoded branch's calibration)
};

inline const char* severityName(Severity severity) {
  return severity == Severity::Error ? "error" : severity == Severity::Info ? "info" : "warning";
}

struct Diagnostic {
  Diagnostic() = default;
  Diagnostic(std::string source_, std::string pointer_, std::string message_, Severity severity_ = Severity::Warning,
             std::string part_ = {}, std::string joint_ = {})
      : source(std::move(source_)),
        pointer(std::move(pointer_)),
        message(std::move(message_)),
        severity(severity_),
        part(std::move(part_)),
        joint(std::move(joint_)) {}

  std::string source;   // the file, e.g. "runs/tank/rig.json"
  std::string pointer;  // JSON pointer into it ("/joints/2/part"), empty if none
  std::string message;  // what is wrong and what the loader did about it
  Severity severity = Severity::Warning;
  std::string part;   // the rig part it concerns, when there is one
  std::string joint;  // the joint it concerns, when there is one

  // "runs/tank/rig.json: /joints/2/part: unknown part 'turet'; joint ignored"
  std::string describe() const {
    std::string out = source;
    if (!pointer.empty()) out += ": " + pointer;
    return out + ": " + message;
  }
};

using Diagnostics = std::vector<Diagnostic>;

// The first error in `now` that `before` did not have (same file, place and
// message): what a second read of a document found broken that the first
// did not - for live reload, the sign of a file read while being written.
inline std::optional<Diagnostic> firstNewError(const Diagnostics& now, const Diagnostics& before) {
  for (const Diagnostic& problem : now) {
    if (problem.severity != Severity::Error) continue;
    const bool known = std::any_of(before.begin(), before.end(), [&](const Diagnostic& old) {
      return old.message == problem.message && old.source == problem.source && old.pointer == problem.pointer;
    });
    if (!known) return problem;
  }
  return std::nullopt;
}

}  // namespace riglens::core
