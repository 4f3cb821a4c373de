// Document: one opened model: the immutable loaded run (shared with the
// render thread) and the rig controller that poses it. GUI thread.
#pragma once

#include <memory>

#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::app {

class Document {
 public:
  explicit Document(std::shared_ptr<const core::LoadedRun> run)
      : m_run(std::move(run)), m_controller(m_run->rig, &m_run->gltf) {}

  const std::shared_ptr<const core::LoadedRun>& run() const { return m_run; }
  core::RigController& controller() { return m_controller; }
  const core::RigController& controller() const { return m_controller; }
  const core::Rig& rig() const { return m_run->rig; }

 private:
  std::shared_ptr<const core::LoadedRun> m_run;  // before m_controller: it refers to m_run->rig and ->gltf
  core::RigController m_controller;
};

}  // namespace riglens::app
