// Where the programs find the data RigLens ships (data/ in the repository:
// the ICT-FaceKit face the sample character is made from).
//
// Always relative to the executable, never a path compiled in: the build tree
// stages data/ as <build>/share/riglens beside <build>/app/, an install puts
// it in <prefix>/share/riglens beside <prefix>/bin/, and a .deb extracted
// anywhere keeps that shape. So one rule serves all three:
//   <folder of the executable>/../share/riglens
#pragma once

#include <filesystem>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// <executableDir>/../share/riglens, lexically normalised. Does not touch the disk.
std::filesystem::path shippedDataDir(const std::filesystem::path& executableDir);

// shippedDataDir(executableDir) / name when that folder exists; otherwise an
// Io error naming the folder it looked in and how to point at another one.
Expected<std::filesystem::path> findShippedData(const std::filesystem::path& executableDir, const std::string& name);

}  // namespace riglens::core
