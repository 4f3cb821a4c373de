// Over the viewport while comparing: which side is which, side by side or
// overlay, and the way out. Side by side, A is drawn in the left half and B
// in the right under one camera (orbiting either turns both).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

Item {
    id: bar
    required property CompareController compare
    required property string firstTitle
    readonly property bool sideBySide: compare.mode === "side"

    Label {
        anchors { left: parent.left; top: parent.top; margins: 10 }
        visible: bar.sideBySide
        text: qsTr("A: %1").arg(bar.firstTitle)
        color: Theme.viewportText
        font.bold: true
    }
    Label {
        anchors { left: parent.horizontalCenter; top: parent.top; margins: 10 }
        text: qsTr("B: %1").arg(bar.compare.title)
        visible: bar.sideBySide
        color: Theme.viewportText
        font.bold: true
    }
    Rectangle {
        anchors { top: parent.top; bottom: parent.bottom; horizontalCenter: parent.horizontalCenter }
        width: 1
        visible: bar.sideBySide
        color: Theme.viewportHint
    }
    // Bottom right: the top corners hold each half's name.
    RowLayout {
        anchors { right: parent.right; bottom: parent.bottom; margins: 8 }
        Button {
            objectName: "compareSideBySide"
            text: qsTr("Side by side")
            checkable: true
            checked: bar.sideBySide
            highlighted: checked  // the style draws a checked Button much like an unchecked one
            onClicked: bar.compare.mode = "side"
        }
        Button {
            objectName: "compareOverlay"
            text: qsTr("Overlay")
            checkable: true
            checked: !bar.sideBySide
            highlighted: checked
            onClicked: bar.compare.mode = "overlay"
        }
        Button {
            objectName: "compareClose"
            text: qsTr("Close")
            onClicked: bar.compare.close()
        }
    }
    CompareLegend {
        anchors { left: parent.left; bottom: parent.bottom; margins: 10 }
        compare: bar.compare
        visible: !bar.sideBySide
    }
}
