#include "riglens/core/base/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "riglens/core/base/sanitizers.h"

namespace riglens::core {

namespace {

// ASan and TSan reserve terabytes of address space up front, so an
// address-space cap would fail their first mmap (sanitizers.h).
constexpr bool kChildMayBeCapped = !kAddressSanitizer && !kThreadSanitizer;

[[noreturn]] void beChild(const ChildLimits& limits, const std::function<int(int)>& body, int fd, pid_t host) {
  // The host's crash handlers (Qt Test's, a debugger hook) must not run in
  // the child: a crash here is the parent's finding, reported by signal.
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, SIG_DFL);
  // A child left looping when its host dies (killed, crashed) dies too.
  // (The signal follows the forking thread, which waits until the end.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != host) _exit(1);
  if (kChildMayBeCapped && limits.memoryBytes) {
    const rlimit limit{limits.memoryBytes, limits.memoryBytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  int code = 1;
  try {
    code = body(fd);
  } catch (...) {
  }
  _exit(code);
}

// Reads the child's answer until it closes its end, the deadline passes or
// the answer grows past the cap (then `stop` says which).
void collect(int fd, const ChildLimits& limits, ChildOutcome& outcome) {
  const auto deadline = std::chrono::steady_clock::now() + limits.time;
  std::array<std::uint8_t, 1 << 16> chunk{};
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      outcome.stop = ChildOutcome::Stop::Time;
      return;
    }
    pollfd wait{fd, POLLIN, 0};
    const int ready = ::poll(&wait, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) {
      outcome.stop = ChildOutcome::Stop::Lost;
      return;
    }
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the child closed its end
    if (outcome.output.size() + std::size_t(n) > limits.outputBytes) {
      outcome.stop = ChildOutcome::Stop::Output;
      return;
    }
    outcome.output.insert(outcome.output.end(), chunk.begin(), chunk.begin() + n);
  }
}

}  // namespace

bool writeAllTo(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= std::size_t(n);
  }
  return true;
}

bool ChildOutcome::exitedZero() const {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string ChildOutcome::howItEnded(std::string_view who) const {
  const std::string name(who);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGKILL) return name + " was stopped (out of memory or time)";
    return name + " crashed on it (" + strsignal(sig) + ")";
  }
  return name + " ended with status " + std::to_string(WEXITSTATUS(status));
}

Expected<ChildOutcome> runInChild(const ChildLimits& limits, const std::function<int(int fd)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return makeError(ErrorCode::Io, "cannot start a child process (no pipe)");
  const pid_t host = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return makeError(ErrorCode::Io, "cannot start a child process (fork failed)");
  }
  if (child == 0) {
    ::close(fds[0]);
    beChild(limits, body, fds[1], host);
  }
  ::close(fds[1]);
  ChildOutcome outcome;
  collect(fds[0], limits, outcome);
  ::close(fds[0]);
  if (outcome.stop != ChildOutcome::Stop::None) ::kill(child, SIGKILL);
  while (::waitpid(child, &outcome.status, 0) < 0 && errno == EINTR) {
  }
  return outcome;
}

}  // namespace riglens::core
