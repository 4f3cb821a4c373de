// The ARKit / MetaHuman tables (resources/character/*.json), embedded as
// JSON text at build time.
#pragma once

namespace riglens::core::tables {
extern const char* const arkit52;
extern const char* const mh188;
extern const char* const arkit_to_mh;
extern const char* const arkit_to_gnm_default;
}  // namespace riglens::core::tables
