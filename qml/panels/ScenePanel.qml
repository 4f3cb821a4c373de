// The part tree of the open model, with sockets marked.
import QtQuick
import QtQuick.Controls

PanelSection {
    objectName: "scenePanel"
    title: qsTr("Scene")

    ListView {
        id: parts
        objectName: "partList"
        anchors.fill: parent
        clip: true
        model: ApplicationWindow.window.controller.partNames
        delegate: ItemDelegate {
            required property string modelData
            width: ListView.view.width
            text: modelData
        }
    }
    EmptyState {
        visible: parts.count === 0
        text: qsTr("The parts of an open rig are listed here.")
    }
}
