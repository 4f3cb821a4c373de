// The model's animations, with transport controls.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

PanelSection {
    objectName: "animationPanel"
    title: qsTr("Animation")

    ColumnLayout {
        anchors.fill: parent
        ListView {
            id: clips
            objectName: "animationList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: ApplicationWindow.window.controller.animationNames
            delegate: ItemDelegate {
                required property string modelData
                width: ListView.view.width
                text: modelData
            }
            EmptyState {
                visible: clips.count === 0
                text: qsTr("Animations of the open rig are listed here.")
            }
        }
        RowLayout {
            Layout.alignment: Qt.AlignHCenter
            enabled: clips.count > 0
            Button { objectName: "playButton"; text: qsTr("Play") }
            Button { objectName: "pauseButton"; text: qsTr("Pause") }
            Button { objectName: "stopButton"; text: qsTr("Stop") }
        }
    }
}
