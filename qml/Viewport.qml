// The viewport: the engine draws the model underneath (RigViewport), the QML
// here only adds the empty state, the loading indicator and drag-and-drop.
import QtQuick
import QtQuick.Controls
import RigLens.Engine

RigViewport {
    id: viewport
    controller: ApplicationWindow.window.controller
    focus: true

    Keys.onPressed: (event) => {
        if (event.key === Qt.Key_F) { viewport.frameAll(); event.accepted = true }
    }

    DropArea {
        anchors.fill: parent
        onDropped: (drop) => {
            if (drop.hasUrls && drop.urls.length > 0)
                ApplicationWindow.window.controller.open(drop.urls[0])
        }
    }

    BusyIndicator {
        objectName: "loadingIndicator"
        anchors.centerIn: parent
        running: ApplicationWindow.window.controller.loading
        visible: running
    }

    Column {
        anchors.centerIn: parent
        spacing: 8
        visible: !ApplicationWindow.window.controller.hasDocument && !ApplicationWindow.window.controller.loading
        Label {
            anchors.horizontalCenter: parent.horizontalCenter
            text: qsTr("No model open")
            font.pixelSize: 20
            color: "#c8d0da"
        }
        Label {
            anchors.horizontalCenter: parent.horizontalCenter
            text: qsTr("File → Open… or drop a run folder, rig.json or .glb here")
            color: "#8a96a3"
        }
    }
}
