// One slider per caller joint, built from its range (min, max, rest), with a
// reset; auto joints listed read-only with their live values. The joint a
// problem concerns (chosen in the Problems panel) is outlined and scrolled to.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "jointsPanel"
    required property AppController controller
    title: qsTr("Joints")

    ColumnLayout {
        anchors.fill: parent
        spacing: 4
        ListView {
            id: joints
            objectName: "jointList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 2
            model: panel.controller.joints
            ScrollBar.vertical: ScrollBar {}
            Connections {
                target: panel.controller
                function onSelectionChanged() {
                    const at = panel.controller.jointNames.indexOf(panel.controller.selectedJoint)
                    if (at >= 0) joints.positionViewAtIndex(at, ListView.Contain)
                }
            }
            delegate: Pane {
                id: row
                required property string name
                required property string kind
                required property string axis
                required property bool caller
                required property string units
                required property real min
                required property real max
                required property real rest
                required property real value
                required property string partName
                readonly property bool selected: panel.controller.selectedJoint === name
                objectName: "joint_" + name
                width: ListView.view.width
                padding: 6
                background: Rectangle {
                    color: row.caller ? palette.alternateBase : "transparent"
                    radius: 3
                    border.width: row.selected ? 2 : 0
                    border.color: palette.highlight
                }
                ColumnLayout {
                    anchors.fill: parent
                    spacing: 0
                    // Only the name and the range's line give way in a narrow
                    // panel (the name elides, the line wraps): the value and
                    // the reset stay in view.
                    RowLayout {
                        Layout.fillWidth: true
                        Label { text: row.name; font.bold: row.caller; Layout.fillWidth: true; elide: Text.ElideRight }
                        Label {
                            objectName: "value_" + row.name
                            text: row.value.toFixed(3) + " " + row.units
                            font.family: "monospace"
                            font.pixelSize: 11
                        }
                        ToolButton {
                            objectName: "reset_" + row.name
                            visible: row.caller
                            text: "⟲"
                            font.pixelSize: 12
                            implicitHeight: 22
                            onClicked: panel.controller.resetJoint(row.name)
                            ToolTip.visible: hovered
                            ToolTip.text: qsTr("Reset to rest (%1)").arg(row.rest)
                        }
                    }
                    Label {
                        text: qsTr("%1 %2 on %3 · %4 … %5, rest %6").arg(row.kind).arg(row.axis).arg(row.partName)
                                  .arg(row.min.toFixed(2)).arg(row.max.toFixed(2)).arg(row.rest.toFixed(2))
                              + (row.caller ? "" : qsTr(" · auto"))
                        Layout.fillWidth: true
                        wrapMode: Text.WordWrap
                        font.pixelSize: 10
                        opacity: 0.65
                    }
                    Slider {
                        objectName: "slider_" + row.name
                        visible: row.caller
                        Layout.fillWidth: true
                        from: row.min
                        to: row.max
                        value: row.value
                        stepSize: 0
                        onMoved: panel.controller.setJointValue(row.name, value)
                    }
                }
            }
        }
        Button {
            objectName: "resetAllJoints"
            text: qsTr("Reset all to rest")
            visible: joints.count > 0
            Layout.fillWidth: true
            onClicked: panel.controller.resetAllJoints()
        }
    }
    EmptyState {
        visible: joints.count === 0
        text: qsTr("Caller joints get a slider here; auto joints show their live value.")
    }
}
