// What a DNA's behaviour holds in memory, table by table, for the viewer's
// Memory panel and `inspect`: each of the matrices the evaluator reads
// (contract/ORL.md 2.3), with its shape and the bytes it takes here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "riglens/core/dna/dna.h"

namespace riglens::core {

struct DnaMatrix {
  std::string name;
  std::size_t rows = 0, columns = 0;  // the matrix's shape (a table: rows x its fields)
  std::size_t values = 0;             // the entries stored (sparse matrices: the non-zeros)
  std::size_t bytes = 0;              // what those entries and their indices take in memory
};

// GUI -> raw conditionals, PSD products, joint groups (together), blendshape
// channel mapping, animated map conditionals, RBF solver targets and pose
// outputs; a table the DNA does not have is left out.
std::vector<DnaMatrix> dnaMatrices(const Dna& dna);

}  // namespace riglens::core
