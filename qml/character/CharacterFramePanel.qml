// What the newest frame of a splat character or scene cost on the GPU, pass
// by pass (Vulkan timestamps; other backends say why there are none), what it
// asked of the GPU (submissions and compute dispatches), the CPU's rasteriser time where it drew the splats, and what it drew: QA reads
// a character's cost here.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "characterFramePanel"
    required property CharacterController character
    readonly property var report: character.frameReport
    title: qsTr("Frame")

    ColumnLayout {
        anchors.fill: parent
        spacing: 1
        GridLayout {
            columns: 2
            Layout.fillWidth: true
            rowSpacing: 1
            Label { text: qsTr("Splats"); font.bold: true }
            Label { objectName: "frameSplats"; Layout.alignment: Qt.AlignRight; text: (panel.report.splats || 0).toLocaleString(Qt.locale(), "f", 0) }
            Label { text: qsTr("Rasteriser"); font.bold: true }
            Label { objectName: "frameRaster"; Layout.alignment: Qt.AlignRight; text: panel.report.raster === "compute" ? qsTr("compute tiles") : panel.report.raster === "cpu" ? qsTr("CPU tiles") : (panel.report.raster || "") }
            Label { text: qsTr("Tile keys"); font.bold: true; visible: (panel.report.tileKeys || 0) > 0 }
            Label { objectName: "frameTileKeys"; Layout.alignment: Qt.AlignRight; visible: (panel.report.tileKeys || 0) > 0; text: (panel.report.tileKeys || 0).toLocaleString(Qt.locale(), "f", 0) }
            Label { text: qsTr("CPU tiles"); font.bold: true; visible: panel.report.raster === "cpu" }
            Label { objectName: "frameCpuMs"; Layout.alignment: Qt.AlignRight; visible: panel.report.raster === "cpu"; text: qsTr("%1 ms").arg((panel.report.cpuMs || 0).toFixed(2)) }
            Label { text: qsTr("Submissions"); font.bold: true }
            Label { objectName: "frameSubmissions"; Layout.alignment: Qt.AlignRight; text: (panel.report.submissions || 0).toString() }
            Label { text: qsTr("Dispatches"); font.bold: true }
            Label { objectName: "frameDispatches"; Layout.alignment: Qt.AlignRight; text: (panel.report.dispatches || 0).toString() }
            Label { text: qsTr("GPU frame"); font.bold: true }
            Label { objectName: "frameGpuMs"; Layout.alignment: Qt.AlignRight; font.bold: true; text: panel.report.available ? qsTr("%1 ms").arg((panel.report.totalMs || 0).toFixed(2)) : qsTr("not available") }
        }
        Label {
            objectName: "frameTimesUnavailable"
            Layout.fillWidth: true
            visible: !panel.report.available && (panel.report.why || "").length > 0
            text: panel.report.why || ""
            wrapMode: Text.Wrap
            font.pixelSize: 11
        }
        RowsListView {
            objectName: "framePasses"
            Layout.fillWidth: true
            Layout.fillHeight: true
            rows: panel.report.passes || []
            delegate: RowLayout {
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                width: ListView.view.width
                Label { text: row.pass || ""; Layout.fillWidth: true; font.pixelSize: 11 }
                Label { text: qsTr("%1 ms").arg((row.ms || 0).toFixed(3)); font.pixelSize: 11 }
            }
        }
    }
}
