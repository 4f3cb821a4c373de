// The status bar: model, size, frame rate and the last message.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens.App

ToolBar {
    id: bar
    required property AppController controller
    required property SceneViewport viewport
    property int fps: 0
    property int lastFrames: 0

    Timer {
        interval: 1000
        running: true
        repeat: true
        onTriggered: {
            bar.fps = bar.viewport.framesRendered - bar.lastFrames
            bar.lastFrames = bar.viewport.framesRendered
        }
    }

    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 8
        anchors.rightMargin: 8
        spacing: 16
        Label {
            objectName: "statusModel"
            text: bar.controller.hasDocument ? bar.controller.documentTitle : qsTr("No model")
            font.bold: true
        }
        Label {
            objectName: "statusSize"
            visible: bar.controller.hasDocument
            // Shrinks (elided) before the frame rate is pushed out of a small window.
            Layout.fillWidth: true
            Layout.maximumWidth: implicitWidth
            elide: Text.ElideRight
            readonly property var info: bar.controller.character.info
            text: bar.controller.mode === AppController.Character
                  ? (info.dna !== undefined ? qsTr("%1 vertices · %2 DNA controls · %3 joints")
                                            : qsTr("%1 vertices · %2 coefficients · %3 joints"))
                        .arg(Number(info.vertices).toLocaleString(Qt.locale(), "f", 0))
                        .arg(info.dna !== undefined ? info.controls : info.coefficients).arg(info.joints)
                  : bar.controller.mode === AppController.Splats
                  ? qsTr("%1 gaussians · SH degree %2").arg(Number(info.gaussians).toLocaleString(Qt.locale(), "f", 0)).arg(info.shDegree)
                  : (bar.controller.partsAreNodes ? qsTr("%1 nodes · %2 triangles") : qsTr("%1 parts · %2 triangles"))
                        .arg(bar.controller.partNames.length)
                        .arg(Number(bar.controller.triangleCount).toLocaleString(Qt.locale(), "f", 0))
            opacity: 0.8
        }
        Label {
            objectName: "statusErrors"
            visible: bar.controller.problems.errorCount > 0
            text: qsTr("%1 error(s)").arg(bar.controller.problems.errorCount)
            color: Theme.error
        }
        Label {
            objectName: "statusWarnings"
            visible: bar.controller.problems.warningCount > 0
            text: qsTr("%1 warning(s)").arg(bar.controller.problems.warningCount)
            color: Theme.warningCount
        }
        Label {
            objectName: "statusMessage"
            Layout.fillWidth: true
            text: bar.controller.statusMessage
            elide: Text.ElideMiddle
            opacity: 0.8
        }
        Label {
            objectName: "statusGraphics"
            Layout.fillWidth: true
            Layout.maximumWidth: implicitWidth
            elide: Text.ElideRight
            // "Vulkan on llvmpipe (…)": the API and device, the reason in the tool tip.
            text: bar.controller.graphics
            opacity: 0.7
            // A MouseArea, not a HoverHandler: Qt 6.4 keeps a pointer to every
            // HoverHandler it visits in a per-device list that only a real
            // pointer event clears, and it visits them on every frame that
            // changes an item while the pointer rests - a viewer left playing
            // grew by 8 bytes a frame (docs/daily-use.md, the soak).
            MouseArea {
                id: graphicsHover
                anchors.fill: parent
                hoverEnabled: true
                acceptedButtons: Qt.NoButton
            }
            ToolTip.visible: graphicsHover.containsMouse
            ToolTip.text: qsTr("Chosen because: %1").arg(bar.controller.graphicsReason)
        }
        Label { objectName: "statusFps"; text: qsTr("%1 fps").arg(bar.fps); opacity: 0.7 }
    }
}
