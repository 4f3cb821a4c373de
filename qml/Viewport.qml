// The viewport: the engine draws the model underneath (SceneViewport), the QML
// here only adds the empty state, the loading indicator and drag-and-drop.
import QtQuick
import QtQuick.Controls
import RigLens.App

SceneViewport {
    id: viewport
    controller: ApplicationWindow.window.controller
    focus: true

    Keys.onPressed: (event) => {
        if (event.key === Qt.Key_F) { viewport.frameAll(); event.accepted = true }
    }

    DropArea {
        anchors.fill: parent
        // Only what a reader claims (core/open/): anything else is refused at the door.
        onEntered: (drag) => {
            drag.accepted = drag.hasUrls && drag.urls.length > 0
                && ApplicationWindow.window.controller.canOpen(drag.urls[0])
        }
        onDropped: (drop) => {
            if (drop.hasUrls && drop.urls.length > 0)
                ApplicationWindow.window.controller.open(drop.urls[0])
        }
    }

    // Socket names beside their markers (sockets tint).
    Repeater {
        model: viewport.sockets
        delegate: Label {
            required property var modelData
            x: modelData.x + 8
            y: modelData.y - height / 2
            text: modelData.name
            color: Theme.socket
            font.bold: true
        }
    }

    CompareBar {
        objectName: "compareBar"
        anchors.fill: parent
        visible: compare.active && !ApplicationWindow.window.characterMode
        compare: ApplicationWindow.window.controller.compare
        firstTitle: ApplicationWindow.window.controller.documentTitle
    }

    Label {
        objectName: "renderError"
        anchors { left: parent.left; right: parent.right; bottom: parent.bottom; margins: 12 }
        visible: viewport.renderError.length > 0
        text: viewport.renderError
        wrapMode: Text.Wrap
        color: Theme.viewportError
    }

    Label {
        objectName: "characterRenderError"
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 520)
        visible: ApplicationWindow.window.controller.character.renderError.length > 0
        readonly property CharacterController character: ApplicationWindow.window.controller.character
        text: qsTr("Cannot draw this character: %1.").arg(character.renderError)
              + (character.computeMissing ? "\n" + qsTr("Voxel rigs still open and draw here; a Vulkan or OpenGL 4.3 device runs characters.") : "")
        horizontalAlignment: Text.AlignHCenter
        wrapMode: Text.Wrap
        color: Theme.viewportError
        font.pixelSize: 15
    }

    // Made while a load runs and destroyed with its end: a BusyIndicator that
    // stops fades out over 250 ms on the render thread (the style's
    // OpacityAnimator), hidden or not, drawing a frame of the whole window
    // each time - 2-3 frames the screenshot waited behind (lavapipe).
    Loader {
        objectName: "loadingIndicator"
        anchors.centerIn: parent
        active: ApplicationWindow.window.controller.loading
        sourceComponent: BusyIndicator { running: true }
    }

    Column {
        anchors.centerIn: parent
        spacing: 8
        visible: !ApplicationWindow.window.controller.hasDocument && !ApplicationWindow.window.controller.loading
        Label {
            anchors.horizontalCenter: parent.horizontalCenter
            text: qsTr("No model open")
            font.pixelSize: 20
            color: Theme.viewportText
        }
        Label {
            anchors.horizontalCenter: parent.horizontalCenter
            text: qsTr("File → Open… or drop a run folder, rig.json, a model (.glb, .gltf, .obj, .fbx, .dae, .stl, .ply), character bundle, .aosrig or splat .ply here")
            color: Theme.viewportHint
        }
    }
}
