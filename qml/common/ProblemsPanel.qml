// Every warning and error of the open document (and a load that failed), as
// the loaders report them: severity, file, JSON pointer, message. Clicking a
// row selects the part or joint it concerns, so QA can triage a run without
// reading logs.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "problemsPanel"
    required property AppController controller
    readonly property ProblemListModel problems: controller.problems
    title: problems.count === 0 ? qsTr("Problems")
                                : qsTr("Problems — %1 error(s), %2 warning(s)").arg(problems.errorCount).arg(problems.warningCount)

    ListView {
        id: list
        objectName: "problemList"
        anchors.fill: parent
        clip: true
        spacing: 2
        model: panel.problems
        ScrollBar.vertical: ScrollBar {}
        delegate: ItemDelegate {
            id: row
            required property int index
            required property string severity
            required property string file
            required property string pointer
            required property string message
            required property string part
            required property string joint
            required property bool failedLoad
            objectName: "problem_" + index
            width: ListView.view.width
            highlighted: ListView.isCurrentItem
            onClicked: {
                list.currentIndex = index
                panel.controller.selectProblem(index)
            }
            ToolTip.visible: hovered
            ToolTip.delay: 600
            ToolTip.text: file + (pointer.length ? " " + pointer : "") + "\n" + message
            contentItem: RowLayout {
                spacing: 8
                Label {
                    text: row.severity === "error" ? "●" : row.severity === "info" ? "ℹ" : "▲"
                    color: row.severity === "error" ? Theme.error : row.severity === "info" ? Theme.placeholderText : Theme.warning
                    Layout.alignment: Qt.AlignTop
                }
                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: 1
                    Label {
                        text: row.message
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        font.bold: row.failedLoad
                    }
                    Label {
                        text: row.file.split("/").pop() + (row.pointer.length ? "  " + row.pointer : "")
                              + (row.part.length ? qsTr("  · part %1").arg(row.part) : "")
                              + (row.joint.length ? qsTr("  · joint %1").arg(row.joint) : "")
                        font.pixelSize: 10
                        opacity: 0.65
                        elide: Text.ElideMiddle
                        Layout.fillWidth: true
                    }
                }
            }
        }
    }
    EmptyState {
        visible: list.count === 0
        text: qsTr("No problems: the open document loaded cleanly.")
    }
}
