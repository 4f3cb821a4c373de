// One control per caller joint, built from jointRange; auto joints read-only.
import QtQuick
import QtQuick.Controls

PanelSection {
    objectName: "jointsPanel"
    title: qsTr("Joints")

    ListView {
        id: joints
        objectName: "jointList"
        anchors.fill: parent
        clip: true
        model: ApplicationWindow.window.controller.jointNames
        delegate: ItemDelegate {
            required property string modelData
            width: ListView.view.width
            text: modelData
        }
    }
    EmptyState {
        visible: joints.count === 0
        text: qsTr("Caller joints get a slider here; auto joints show their live value.")
    }
}
