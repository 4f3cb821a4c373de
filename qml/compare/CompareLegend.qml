// The overlay's colour scale: distance 0 (blue) to the scale's top (red) in
// the runs' length unit, the same stops the engine colours with
// (core::distanceScaleStops), and the grey of parts whose vertices cannot be
// paired. The scale follows the largest distance at each pose unless locked.
// With no vertex paired there is nothing to colour: the legend says why
// instead of a scale from 0 to 0.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

Pane {
    id: legend
    objectName: "compareLegend"
    required property CompareController compare
    padding: 8
    opacity: 0.92

    ColumnLayout {
        spacing: 4
        readonly property bool measured: legend.compare.pairedVertices > 0
        Label { text: qsTr("Distance to A"); font.bold: true }
        Label {
            objectName: "compareNothingPaired"
            visible: !parent.measured
            Layout.maximumWidth: 220
            wrapMode: Text.WordWrap
            font.pixelSize: 11
            text: qsTr("No vertex is paired with A's: every shared part's mesh differs (vertex count or order), so nothing is measured.")
        }
        // One two-stop gradient per segment between the scale's stops
        // (interpolated in sRGB, as core::distanceColor does).
        Row {
            id: legendBar
            objectName: "compareLegendBar"
            visible: parent.measured
            readonly property var stops: legend.compare.legendStops
            Repeater {
                model: legendBar.stops.length - 1
                delegate: Rectangle {
                    required property int index
                    readonly property var from: legendBar.stops[index]
                    readonly property var to: legendBar.stops[index + 1]
                    width: 200 * (to.at - from.at)
                    height: 14
                    gradient: Gradient {
                        orientation: Gradient.Horizontal
                        GradientStop { position: 0; color: from.color }
                        GradientStop { position: 1; color: to.color }
                    }
                }
            }
        }
        RowLayout {
            visible: parent.measured
            Layout.preferredWidth: 200
            Label { text: "0"; font.pixelSize: 11 }
            Item { Layout.fillWidth: true }
            Label { text: (legend.compare.scaleMax / 2).toPrecision(3); font.pixelSize: 11 }
            Item { Layout.fillWidth: true }
            Label { objectName: "compareScaleMax"; text: legend.compare.scaleMax.toPrecision(3); font.pixelSize: 11 }
        }
        RowLayout {
            Rectangle { width: 14; height: 14; color: legend.compare.unpairedColor }
            Label { text: qsTr("not paired (topology differs)"); font.pixelSize: 11 }
        }
        CheckBox {
            objectName: "compareLockScale"
            visible: parent.measured
            text: qsTr("Lock the scale")
            checked: legend.compare.scaleLocked
            onToggled: legend.compare.scaleLocked = checked
        }
    }
}
