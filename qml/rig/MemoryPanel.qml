// CPU and GPU memory held for the open model, by resource kind and by part.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "memoryPanel"
    required property AppController controller
    readonly property var report: controller.memoryReport
    title: qsTr("Memory")

    ColumnLayout {
        anchors.fill: parent
        spacing: 2
        GridLayout {
            columns: 2
            Layout.fillWidth: true
            rowSpacing: 1
            // The names elide and the values keep their width: in a narrow
            // window (180 px side panels at 700 px) the values must show.
            Label { text: qsTr("CPU (geometry)"); font.bold: true; Layout.fillWidth: true; elide: Text.ElideRight }
            Label { objectName: "cpuBytes"; Layout.alignment: Qt.AlignRight; font.bold: true; text: panel.controller.formatBytes(panel.controller.cpuBytes) }
            Label { text: qsTr("GPU total"); font.bold: true; Layout.fillWidth: true; elide: Text.ElideRight }
            Label { objectName: "gpuBytes"; Layout.alignment: Qt.AlignRight; font.bold: true; text: panel.controller.formatBytes(panel.controller.gpuBytes) }
        }
        // The buffer kinds, one row each. A Column, not rows of the
        // GridLayout: RigLens keeps Repeaters out of Qt Quick Layouts
        // (ViewToolBar.qml says why; tst_app_window checks it).
        Column {
            Layout.fillWidth: true
            spacing: 1
            Repeater {
                model: [["vertexBytes", qsTr("  vertex buffers")], ["indexBytes", qsTr("  index buffers")],
                        ["uniformBytes", qsTr("  uniform buffers")], ["storageBytes", qsTr("  storage (skinning)")],
                        ["overlayBytes", qsTr("  overlays")], ["textureBytes", qsTr("  textures")],
                        ["compareBytes", qsTr("  compared version (B)")]]
                delegate: RowLayout {
                    required property var modelData
                    width: parent ? parent.width : 0
                    visible: modelData[0] !== "compareBytes" || (panel.report.compareBytes || 0) > 0
                    opacity: 0.75
                    Label { text: modelData[1]; Layout.fillWidth: true; elide: Text.ElideRight }
                    Label { objectName: "bytes_" + modelData[0]; text: panel.controller.formatBytes(panel.report[modelData[0]] || 0) }
                }
            }
        }
        Label { text: qsTr("Per part (GPU)"); font.bold: true; topPadding: 4; visible: parts.count > 0 }
        RowsListView {
            id: parts
            objectName: "memoryParts"
            Layout.fillWidth: true
            Layout.fillHeight: true
            rows: panel.report.parts || []
            delegate: RowLayout {
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                width: ListView.view.width
                Label { text: row.name || ""; Layout.fillWidth: true; elide: Text.ElideRight; font.pixelSize: 11 }
                Label { text: panel.controller.formatBytes(row.totalBytes || 0); font.pixelSize: 11; opacity: 0.8 }
            }
        }
    }
}
