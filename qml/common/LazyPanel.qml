import QtQuick

// A side panel that exists only while it is shown: the window makes the
// panels of the open document's kind (a rig's or a character's), and the
// VRM and comparison panels only while there is one. Making every kind's
// panels up front cost the tank's cold start ~20 ms on lavapipe
// (2026-12-07). A panel's own state (scroll position, open rows) goes when
// it is hidden. Give it `visible` (when it shows), its SplitView sizes, and
// the panel as `sourceComponent`.
Loader {
    active: visible
}
