// What `riglens-cli review` reviews: the items named by its arguments
// (files, folders searched for what RigLens opens, glob patterns, @lists of
// paths), each with a stable id, in one deterministic order that shards
// slice.
#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <optional>
#include <vector>

namespace riglens::cli::review {

struct ReviewItem {
  QString path;   // absolute
  QString id;     // stable across machines and runs: a hash of the path and the name
  QString name;   // the file or folder name, for people
  QString kind;   // the reader's kind ("run", "model", "character", "splat-scene"), or "" when none claims it
  QString error;  // set when the argument names nothing RigLens can open: listed, never dropped
};

// Every item the arguments name, sorted by path, each once. A folder that a
// reader claims (a run, a bundle) is one item; any other folder is searched,
// without entering the items it finds. "@FILE" reads paths from FILE, one a
// line (blank lines and # comments skipped, relative to FILE's folder).
std::vector<ReviewItem> gatherItems(const QStringList& arguments);

struct Shard {
  int index = 0, count = 1;
};

// "I/N" with 0 <= I < N.
std::optional<Shard> parseShard(const QString& text);
// The shard the scheduler gave this process: Slurm's array task (its id
// less the array's first id, of SLURM_ARRAY_TASK_COUNT), or a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX of `countForIndexedJob` tasks.
std::optional<Shard> shardFromEnvironment(int countForIndexedJob, QString* problem);

// The items of shard `shard`: every count-th, starting at index.
std::vector<ReviewItem> shardSlice(const std::vector<ReviewItem>& items, Shard shard);

}  // namespace riglens::cli::review
