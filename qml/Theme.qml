// Theme: every colour and metric the panels share, named for what it marks.
// The viewport's background is the engine's (SceneViewport.background, from
// render::kViewportBackground), so the window and the 3D view cannot drift.
pragma Singleton
import QtQuick

QtObject {
    // The dark palette of every control.
    readonly property color window: "#2b3038"
    readonly property color text: "#dfe4ea"
    readonly property color base: "#23272e"
    readonly property color alternateBase: "#30353d"
    readonly property color button: "#363c45"
    readonly property color brightText: "#ffffff"
    readonly property color highlight: "#3f7fd8"
    readonly property color toolTipBase: "#3a4049"
    readonly property color placeholderText: "#8b95a1"
    readonly property color mid: "#40464f"
    readonly property color dark: "#1c2026"
    readonly property color light: "#4a515b"

    // Problems: an error, a warning (lists) and their counts (status bar).
    readonly property color error: "#ff6b6b"
    readonly property color warning: "#f2c14e"
    readonly property color warningCount: "#ffcf6e"
    // Text over the 3D view when it cannot draw, and its hints.
    readonly property color viewportError: "#ffb4b4"
    readonly property color viewportText: "#c8d0da"
    readonly property color viewportHint: "#8a96a3"
    // A character panel's refusal (an expression space or memory it cannot show).
    readonly property color refusal: "#ff9b8a"
    // Sockets (Scene panel, viewport markers) and animation key ticks.
    readonly property color socket: "#ff6fd8"
    readonly property color keyTick: "#ffcf6e"
    // The error banner.
    readonly property color bannerBackground: "#5c1f24"
    readonly property color bannerBorder: "#a33a44"
    readonly property color bannerText: "#ffe3e3"
}
