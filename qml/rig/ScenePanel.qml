// The part tree: select a part to highlight it, toggle its visibility;
// sockets (parts without geometry) are marked, and so are parts a problem
// concerns (its message in the tool tip).
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

    ListView {
        id: parts
        objectName: "partList"
        anchors.fill: parent
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
    EmptyState {
        visible: parts.count === 0
        text: qsTr("The parts of an open rig are listed here.")
    }
}
