// The PBR look's environment maps as the viewer opens them: decoded once
// per file (keyed by its path, size and modification time) and shared, so
// reopening one, or switching documents under it, decodes nothing again —
// and the renderer, which remakes its image-based light only when handed
// a different map, prefilters nothing again either.
#pragma once

#include <QtCore/QString>
#include <memory>

#include "riglens/core/base/expected.h"
#include "riglens/core/view/environment.h"

namespace riglens::app {

core::Expected<std::shared_ptr<const core::EnvironmentMap>> cachedEnvironment(const QString& path);

}  // namespace riglens::app
