// Joint overrides of a splat character's head rig: pitch / yaw / roll on top
// of each joint's rest rotation, in degrees, with a reset. An ORL
// character's joints follow its DNA only: each shows its live outputs
// (translation, rotation and scale deltas) instead of sliders.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "characterJointsPanel"
    required property CharacterController character
    readonly property var axes: [qsTr("pitch"), qsTr("yaw"), qsTr("roll")]
    property int revision: 0  // bumped on every change so the sliders re-read
    // Disabled (not hidden) when the GPU cannot run the character passes.
    enabled: character.renderError.length === 0
    readonly property bool dnaDriven: character.rigBackend === "orl"
    title: dnaDriven ? qsTr("DNA joints") : qsTr("Head joints")

    Connections {
        target: panel.character
        function onControlsChanged() { panel.revision++ }
        function onSceneChanged() { panel.revision++ }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 4
        visible: panel.character.kind === "character"
        RowsListView {
            objectName: "characterJoints"
            Layout.fillWidth: true
            Layout.fillHeight: true
            rows: panel.character.jointNames
            delegate: ColumnLayout {
                id: joint
                required property int index
                readonly property string name: ListView.view.rows[index] || ""
                readonly property var degrees: { panel.revision; return panel.character.jointRotation(name) }
                width: ListView.view.width
                spacing: 0
                Label { text: joint.name; font.bold: true; topPadding: 4 }
                Label {
                    objectName: "jointOutputs_" + joint.name
                    visible: panel.dnaDriven
                    Layout.fillWidth: true
                    font.pixelSize: 11
                    text: { panel.revision; return panel.dnaDriven ? panel.character.jointOutputText(joint.name) : "" }
                }
                Column {  // a positioner: Repeaters stay out of Layouts (ViewToolBar.qml)
                  visible: !panel.dnaDriven
                  Layout.fillWidth: true
                  Repeater {
                    model: 3
                    delegate: RowLayout {
                        required property int index
                        width: parent ? parent.width : 0
                        Label { text: panel.axes[index]; Layout.preferredWidth: 40; font.pixelSize: 11 }
                        Slider {
                            objectName: "joint_" + joint.name + "_" + index
                            Layout.fillWidth: true
                            from: -45; to: 45; stepSize: 0
                            value: joint.degrees[index]
                            onMoved: {
                                const d = joint.degrees.slice()
                                d[index] = value
                                panel.character.setJointRotation(joint.name, d[0], d[1], d[2])
                            }
                        }
                        Label { text: Number(joint.degrees[index]).toFixed(1) + "°"; font.pixelSize: 11; Layout.preferredWidth: 44 }
                    }
                  }
                }
            }
        }
        Button { visible: !panel.dnaDriven; text: qsTr("Reset joints"); onClicked: panel.character.resetJoints() }
    }
    EmptyState {
        visible: panel.character.kind !== "character"
        text: qsTr("A splat scene has no joints.")
    }
}
