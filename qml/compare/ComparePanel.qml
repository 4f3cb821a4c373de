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
        ListView {
            id: sentences
            objectName: "compareDifferences"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, panel.height * 0.45)
            clip: true
            model: panel.compare.differences
            ScrollBar.vertical: ScrollBar {}
            delegate: Label {
                required property string modelData
                width: ListView.view.width
                text: "• " + modelData
                wrapMode: Text.Wrap
                font.pixelSize: 11
            }
        }
        Label { text: qsTr("Vertex distance per part (max / mean)"); font.bold: true; topPadding: 4 }
        ListView {
            objectName: "compareParts"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: panel.compare.parts
            ScrollBar.vertical: ScrollBar {}
            delegate: RowLayout {
                required property var modelData
                width: ListView.view.width
                Label { text: modelData.name; Layout.fillWidth: true; elide: Text.ElideRight; font.pixelSize: 11 }
                Label {
                    font.pixelSize: 11
                    opacity: 0.85
                    text: !modelData.paired ? qsTr("topology differs")
                          : modelData.vertices === 0 ? qsTr("no vertices")
                          : modelData.max.toPrecision(3) + " / " + modelData.mean.toPrecision(3)
                }
            }
        }
    }
}
