// What the reader table (asset_readers.h) tells the world, generated from it
// so that nothing lists formats by hand: the file dialog's name filters, the
// viewer's --help sentence, the .desktop MimeType line and the
// shared-mime-info XML RigLens installs (packaging/ writes both at build
// time through `riglens-cli formats`).
#pragma once

#include <string>
#include <vector>

namespace riglens::core {

// "RigLens inputs (*.json *.glb ...)" first, then one filter per file reader
// the viewer opens ("glTF binary (*.glb)"), then "All files (*)".
std::vector<std::string> dialogNameFilters();
// Every file pattern the viewer opens, once each, in the table's order.
std::vector<std::string> openablePatterns();
// "a RigLens run folder, a RigLens rig or run record (rig.json, run.json,
// *.json), a glTF binary (*.glb), ..." for --help.
std::string openableSentence();
// The MIME types the viewer opens, once each ("model/gltf-binary", ...).
std::vector<std::string> desktopMimeTypes();
// The shared-mime-info XML for the MIME types RigLens defines itself: a
// comment (the readers' names), a glob per pattern, the magic when known.
std::string sharedMimeInfoXml();

}  // namespace riglens::core
