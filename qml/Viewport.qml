// The viewport: where the engine draws the model. Until a model is loaded it
// shows how to open one. Drag and drop of a file opens it.
import QtQuick
import QtQuick.Controls

Rectangle {
    id: viewport
    color: "#20262e"

    DropArea {
        anchors.fill: parent
        onDropped: (drop) => {
            if (drop.hasUrls && drop.urls.length > 0)
                ApplicationWindow.window.controller.open(drop.urls[0])
        }
    }

    Column {
        anchors.centerIn: parent
        spacing: 8
        visible: !ApplicationWindow.window.controller.hasDocument
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
