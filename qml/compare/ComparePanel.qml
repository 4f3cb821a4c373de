// What differs between the open run (A) and the version it is compared with
// (B): core::compareRuns' sentences (parts, joints and clips added, removed
// or changed, triangle counts, moved bounds, parts whose vertices moved) and
// each shared part's max and mean vertex distance at the current pose.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "comparePanel"
    required property CompareController compare
    title: qsTr("Differences")

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 6
        spacing: 2
        Label {
            Layout.fillWidth: true
            text: qsTr("B: %1").arg(panel.compare.title)
            elide: Text.ElideMiddle
            font.bold: true
        }
        Label {
            objectName: "compareSame"
            visible: panel.compare.differences.length === 0
            text: qsTr("The same at this pose (within 1e-5).")
            opacity: 0.8
        }
        RowsListView {
            id: sentences
            objectName: "compareDifferences"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, panel.height * 0.45)
            rows: panel.compare.differences
            delegate: Label {
                required property int index
                width: ListView.view.width
                text: "• " + (ListView.view.rows[index] || "")
                wrapMode: Text.Wrap
                font.pixelSize: 11
            }
        }
        Label { text: qsTr("Vertex distance per part (max / mean)"); font.bold: true; topPadding: 4 }
        RowsListView {
            objectName: "compareParts"
            Layout.fillWidth: true
            Layout.fillHeight: true
            rows: panel.compare.parts
            delegate: RowLayout {
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                width: ListView.view.width
                Label { text: row.name || ""; Layout.fillWidth: true; elide: Text.ElideRight; font.pixelSize: 11 }
                Label {
                    font.pixelSize: 11
                    opacity: 0.85
                    text: !row.paired ? qsTr("topology differs")
                          : row.vertices === 0 ? qsTr("no vertices")
                          : row.max.toPrecision(3) + " / " + row.mean.toPrecision(3)
                }
            }
        }
    }
}
