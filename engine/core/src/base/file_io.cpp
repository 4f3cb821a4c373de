#include "riglens/core/base/file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

// The symbolic names of the errors a write meets in daily use, so a message
// can be searched for and scripted against ("No space left on device, ENOSPC").
const char* errnoName(int error) {
  switch (error) {
    case ENOSPC: return "ENOSPC";
    case EDQUOT: return "EDQUOT";
    case EFBIG: return "EFBIG";
    case EROFS: return "EROFS";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EIO: return "EIO";
    default: return nullptr;
  }
}

Error ioError(const std::filesystem::path& path, std::string_view what) {
  std::string problem(what);
  if (errno != 0) {
    problem += std::string(" (") + std::strerror(errno);
    if (const char* name = errnoName(errno)) problem += std::string(", ") + name;
    problem += ")";
  }
  return errorAt(ErrorCode::Io, path.string(), "", problem);
}

template <class Container>
Expected<Container> readWhole(const std::filesystem::path& path) {
  errno = 0;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    errno = 0;
    return ioError(path, "no such file");
  }
  if (std::filesystem::is_directory(path, ec)) {
    errno = 0;
    return ioError(path, "is a folder, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return ioError(path, "cannot open for reading");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return ioError(path, "cannot determine the file size");
  in.seekg(0, std::ios::beg);
  Container data(static_cast<std::size_t>(size), typename Container::value_type{});
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) return ioError(path, "read failed");
  return data;
}

}  // namespace

Expected<std::vector<std::uint8_t>> readFileBytes(const std::filesystem::path& path) {
  return readWhole<std::vector<std::uint8_t>>(path);
}

Expected<std::string> readFileText(const std::filesystem::path& path) {
  return readWhole<std::string>(path);
}

Expected<std::filesystem::path> resolveInside(const std::filesystem::path& folder, const std::string& relative,
                                              std::string_view what, std::string_view folderNoun) {
  namespace fs = std::filesystem;
  const fs::path rel(relative);
  if (relative.empty()) return makeError(ErrorCode::Invalid, std::string(what) + ": empty path");
  if (relative.find('\0') != std::string::npos)
    return makeError(ErrorCode::Invalid, std::string(what) + ": the path holds a NUL byte");
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    return makeError(ErrorCode::Invalid, std::string(what) + ": '" + relative +
                                             "' is absolute; paths must stay inside " + std::string(folderNoun));
  const fs::path base = folder.empty() ? fs::path(".") : folder;
  const fs::path joined = (base / rel).lexically_normal();
  const fs::path inside = joined.lexically_relative(base.lexically_normal());
  if (inside.empty() || *inside.begin() == ".." || inside == ".")
    return makeError(ErrorCode::Invalid, std::string(what) + ": '" + relative + "' escapes " + std::string(folderNoun));
  return joined;
}

namespace {

// Writes every byte (a write may take fewer, or be interrupted).
bool writeAll(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

// The folder's entry for the renamed file reaches the disk too: after a
// crash the target is the old file or the new one, never an empty one.
void syncFolder(const std::filesystem::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The temp file's name: the target's, ".tmp-", this host, this process and
// a random number. The host and process say whose it is when one is found
// later: a writer killed mid-write (SIGKILL, power) leaves it behind.
std::string tempSuffixPrefix() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || !host[0]) std::strcpy(host, "host");
  for (char* c = host; *c; ++c)
    if (*c == '-' || *c == '/') *c = '_';
  return std::string(".tmp-") + host + "-";
}

// Temp files of this target left by writers on this host that are gone
// (their process no longer exists) are removed before a new write: one
// killed export must not leave one more file per attempt. Another host's
// (a shared folder on a farm) or a live writer's are left alone.
void removeStaleTemps(const std::filesystem::path& path) {
  const std::string prefix = path.filename().string() + tempSuffixPrefix();
  std::error_code error;
  std::filesystem::directory_iterator it(path.has_parent_path() ? path.parent_path() : ".", error), end;
  for (; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || pid == long(::getpid()) || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    std::filesystem::remove(it->path(), ignored);
  }
}

// One file written to its temp beside the target, not yet renamed.
struct StagedFile {
  std::filesystem::path temp, path;
  bool replacing = false;
};

// Temp file beside the target (same filesystem: the rename is atomic), every
// byte written and flushed to the disk (fsync). A failure - a full disk
// (ENOSPC), a size limit (EFBIG), a read-only folder - removes the temp
// file. An existing target's permissions are kept.
Expected<StagedFile> stageFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  removeStaleTemps(path);
  errno = 0;
  std::random_device entropy;
  StagedFile staged{path, path, false};
  staged.temp += tempSuffixPrefix() + std::to_string(::getpid()) + "-" + std::to_string(entropy());
  struct stat existing {};
  staged.replacing = ::stat(path.c_str(), &existing) == 0;
  const int fd = ::open(staged.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                        staged.replacing ? existing.st_mode & 07777 : 0666);
  if (fd < 0) return ioError(path, "cannot create a file in its folder");
  if (staged.replacing)
    (void)::fchmod(fd, existing.st_mode & 07777);  // the umask does not narrow a file being replaced
  const bool written = writeAll(fd, bytes) && ::fsync(fd) == 0;
  const int writeErrno = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    errno = written ? errno : writeErrno;
    Error error = ioError(path, staged.replacing ? "cannot write it; the previous file is kept" : "cannot write it");
    ::unlink(staged.temp.c_str());
    return error;
  }
  return staged;
}

// The staged file renamed over its target, and the folder's entry synced.
Expected<void> commitFile(const StagedFile& staged) {
  if (::rename(staged.temp.c_str(), staged.path.c_str()) != 0) {
    Error error =
        ioError(staged.path, staged.replacing ? "cannot move the finished file into place; the previous file is kept"
                                              : "cannot move the finished file into place");
    ::unlink(staged.temp.c_str());
    return error;
  }
  syncFolder(staged.path.parent_path());
  return {};
}

}  // namespace

// A process killed mid-write leaves the target as it was and a .tmp- file,
// which the next write of the same target on this host removes.
Expected<void> writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  auto staged = stageFile(path, bytes);
  if (!staged) return staged.error();
  return commitFile(*staged);
}

// Every file staged before any is renamed: a full disk or a size limit met
// by the second file leaves the first one's previous version too.
Expected<void> writeFilesAtomically(std::span<const FileToWrite> files) {
  std::vector<StagedFile> staged;
  for (const FileToWrite& file : files) {
    auto one = stageFile(file.path, file.bytes);
    if (!one) {
      for (const StagedFile& done : staged) ::unlink(done.temp.c_str());
      return one.error();
    }
    staged.push_back(std::move(one).value());
  }
  for (std::size_t i = 0; i < staged.size(); ++i)
    if (auto ok = commitFile(staged[i]); !ok) {
      for (std::size_t j = i + 1; j < staged.size(); ++j) ::unlink(staged[j].temp.c_str());
      return ok;
    }
  return {};
}

}  // namespace riglens::core
