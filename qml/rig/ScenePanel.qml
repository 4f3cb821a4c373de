// The part tree: select a part to highlight it, toggle its visibility;
// sockets (parts without geometry) are marked, and so are parts a problem
// concerns (its message in the tool tip). A VRM avatar adds its humanoid
// bone map below: each VRM bone and the node that is it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "scenePanel"
    required property AppController controller
    title: qsTr("Scene")

    ColumnLayout {
        anchors.fill: parent
        spacing: 4
        ListView {
            id: parts
            objectName: "partList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: 48
            clip: true
            model: panel.controller.parts
            ScrollBar.vertical: ScrollBar {}
            delegate: ItemDelegate {
                id: row
                required property string name
                required property int partIndex
                required property int depth
                required property bool socket
                required property bool partVisible
                required property bool selected
                required property int triangles
                required property string problem
                required property string problemSeverity
                objectName: "part_" + name
                width: ListView.view.width
                highlighted: selected
                onClicked: panel.controller.selectedPart = selected ? -1 : partIndex
                contentItem: RowLayout {
                    spacing: 6
                    Item { Layout.preferredWidth: row.depth * 14 }
                    CheckBox {
                        objectName: "visible_" + row.name
                        checked: row.partVisible
                        padding: 0
                        onToggled: panel.controller.setPartVisible(row.partIndex, checked)
                        ToolTip.visible: hovered
                        ToolTip.text: qsTr("Show / hide")
                    }
                    Label { text: row.name; Layout.fillWidth: true; elide: Text.ElideRight; font.bold: row.selected }
                    Label {
                        objectName: "problemMark_" + row.name
                        visible: row.problem.length > 0
                        text: row.problemSeverity === "error" ? "●" : "▲"
                        color: row.problemSeverity === "error" ? Theme.error : Theme.warning
                        ToolTip.visible: markArea.containsMouse
                        ToolTip.text: row.problem
                        MouseArea { id: markArea; anchors.fill: parent; hoverEnabled: true }
                    }
                    Label {
                        text: row.socket ? qsTr("socket") : qsTr("%1 tris").arg(row.triangles)
                        color: row.socket ? Theme.socket : palette.placeholderText
                        font.pixelSize: 11
                    }
                }
            }
        }
        Label {
            visible: humanoid.count > 0
            text: qsTr("Humanoid (VRM %1): %n bone(s)", "", humanoid.count).arg(panel.controller.avatar.version)
            font.bold: true
        }
        RowsListView {
            id: humanoid
            objectName: "humanoidList"
            visible: count > 0
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, panel.height * 0.3)
            rows: panel.controller.avatar.humanoid
            delegate: RowLayout {
                id: boneRow
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                objectName: "humanBone_" + row.bone
                width: ListView.view.width
                Label { text: boneRow.row.bone || ""; Layout.preferredWidth: 120; elide: Text.ElideRight }
                Label {
                    text: boneRow.row.node || ""
                    color: palette.placeholderText
                    Layout.fillWidth: true
                    elide: Text.ElideRight
                }
            }
        }
    }
    EmptyState {
        visible: parts.count === 0
        text: qsTr("The parts of an open rig are listed here.")
    }
}
