// The `riglens-cli character` subcommands that live in their own files.
#pragma once

#include <QtCore/QStringList>

namespace riglens::cli {

int characterSplats(const QStringList& args);      // character_splats_command.cpp
int characterEvaluate(const QStringList& args);    // dna_command.cpp
int characterMakeSample(const QStringList& args);  // make_sample_command.cpp

}  // namespace riglens::cli
