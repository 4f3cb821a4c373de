// Expression channels of a splat character (ARKit-style names).
import QtQuick
import QtQuick.Controls

PanelSection {
    objectName: "expressionPanel"
    title: qsTr("Expression")

    ListView {
        id: channels
        objectName: "expressionList"
        anchors.fill: parent
        clip: true
        model: ApplicationWindow.window.controller.expressionChannels
        delegate: ItemDelegate {
            required property string modelData
            width: ListView.view.width
            text: modelData
        }
    }
    EmptyState {
        visible: channels.count === 0
        text: qsTr("Expression channels appear when a character is open.")
    }
}
