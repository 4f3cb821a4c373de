// Registers the C++ types the QML uses (the viewport item, the controllers
// and their models) under
// "RigLens.App 1.0". Called by the riglens executable and the app tests
// before they load the QML.
#pragma once

namespace riglens::app {
void registerAppTypes();
}
