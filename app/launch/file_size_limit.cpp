#include "file_size_limit.h"

#include <csignal>

namespace riglens::launch {

void reportFileSizeLimitAsError() {
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace riglens::launch
