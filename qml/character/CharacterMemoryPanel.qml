// What a splat character or scene holds: the pack bytes on the CPU (and an
// ORL character's DNA tables, the CPU route's lift arrays), every GPU buffer of the rig, lift and splat
// passes, and the sink's slots per branch.
// When the GPU cannot run the character passes, says so here.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "characterMemoryPanel"
    required property AppController controller
    required property CharacterController character
    readonly property var report: character.memoryReport
    title: qsTr("Memory")

    ColumnLayout {
        anchors.fill: parent
        spacing: 2
        Label {
            objectName: "characterRenderError"
            Layout.fillWidth: true
            visible: panel.character.renderError.length > 0
            text: qsTr("Character features are disabled: %1.").arg(panel.character.renderError)
            wrapMode: Text.Wrap
            color: Theme.refusal
        }
        GridLayout {
            columns: 2
            Layout.fillWidth: true
            rowSpacing: 1
            // The names elide and the values keep their width (a 180 px
            // side panel in a 700 px window): the values must show.
            Label { text: panel.character.kind === "splats" ? qsTr("Scene (CPU)") : qsTr("Pack (CPU)"); font.bold: true; Layout.fillWidth: true; elide: Text.ElideRight }
            Label { objectName: "packBytes"; Layout.alignment: Qt.AlignRight; font.bold: true; text: panel.controller.formatBytes(panel.report.packBytes || 0) }
            Label { text: qsTr("Decoder weights (CPU)"); font.bold: true; visible: panel.character.decodedAvailable; Layout.fillWidth: true; elide: Text.ElideRight }
            Label { objectName: "decoderBytes"; Layout.alignment: Qt.AlignRight; font.bold: true; visible: panel.character.decodedAvailable; text: panel.controller.formatBytes(panel.character.decodeStats.decoderBytes || 0) }
            Label { text: qsTr("GPU total"); font.bold: true; Layout.fillWidth: true; elide: Text.ElideRight }
            Label { objectName: "characterGpuBytes"; Layout.alignment: Qt.AlignRight; font.bold: true; text: panel.controller.formatBytes(panel.report.gpuBytes || 0) }
        }
        // In a positioner, not in the Layout: the model changes with each
        // report (ViewToolBar.qml says why).
        Column {
            Layout.fillWidth: true
            Repeater {
                model: panel.report.branches || []
                delegate: Label {
                    required property var modelData
                    objectName: "slots_" + modelData.name
                    width: parent ? parent.width : 0
                    wrapMode: Text.Wrap
                    text: qsTr("Slots %1: %2 / %3 (from %4)").arg(modelData.name).arg(modelData.slotsUsed).arg(modelData.capacity).arg(modelData.slotOffset)
                    font.pixelSize: 11
                }
            }
        }
        Label { text: qsTr("DNA matrices (CPU)"); font.bold: true; topPadding: 4; visible: panel.character.dnaMatrices.length > 0 }
        Column {
            Layout.fillWidth: true
            visible: panel.character.dnaMatrices.length > 0
            Repeater {
                model: panel.character.dnaMatrices
                delegate: Label {
                    required property var modelData
                    objectName: "dnaMatrix_" + index
                    required property int index
                    width: parent ? parent.width : 0
                    elide: Text.ElideRight
                    text: qsTr("%1: %2 x %3, %4 values, %5").arg(modelData.name).arg(modelData.rows).arg(modelData.columns).arg(modelData.values).arg(panel.controller.formatBytes(modelData.bytes))
                    font.pixelSize: 11
                }
            }
        }
        Label { text: qsTr("Lift arrays (CPU)"); font.bold: true; topPadding: 4; visible: (panel.report.cpuArrays || []).length > 0 }
        Column {
            objectName: "characterCpuArrays"
            Layout.fillWidth: true
            visible: (panel.report.cpuArrays || []).length > 0
            Repeater {
                model: panel.report.cpuArrays || []
                delegate: RowLayout {
                    required property var modelData
                    width: parent ? parent.width : 0
                    Label { text: modelData.name; Layout.fillWidth: true; elide: Text.ElideRight; font.pixelSize: 11 }
                    Label { text: panel.controller.formatBytes(modelData.bytes); font.pixelSize: 11; opacity: 0.8 }
                }
            }
        }
        Label { text: qsTr("GPU buffers"); font.bold: true; topPadding: 4 }
        RowsListView {
            objectName: "characterBuffers"
            Layout.fillWidth: true
            Layout.fillHeight: true
            rows: panel.report.buffers || []
            delegate: RowLayout {
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                width: ListView.view.width
                Label { text: row.name || ""; Layout.fillWidth: true; elide: Text.ElideRight; font.pixelSize: 11 }
                Label { text: panel.controller.formatBytes(row.bytes || 0); font.pixelSize: 11; opacity: 0.8 }
            }
        }
    }
}
