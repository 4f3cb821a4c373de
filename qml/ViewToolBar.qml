// The tool bar: tint modes (1-6; a character's 1-5), grid, axes, frame all, the PBR look, turntable.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens.App

ToolBar {
    id: bar
    required property SceneViewport viewport
    required property var tintModes
    required property string tint
    signal tintChosen(string mode)
    property bool turntable: false
    // A splat scene's up axis ("+y" / "-y"; "" for anything else) and its flip.
    property string splatUp: ""
    // Models have two looks (review, PBR); splats and characters one.
    property bool lookApplies: true
    signal flipSplatUp()
    signal turntableToggled(bool on)

    RowLayout {
        anchors.fill: parent
        spacing: 2
        Label { text: qsTr("Tint"); leftPadding: 8; rightPadding: 4; opacity: 0.7; visible: bar.tintModes.length > 0 }
        ButtonGroup { id: tints }
        // The tint buttons sit in a Row, not in the RowLayout itself: their
        // model changes with the document kind, and Qt 6.4's layout engine
        // kept the destroyed buttons and read them on the next resize
        // (use after free: every --size screenshot of a splat document).
        Row {
          visible: bar.tintModes.length > 0
          Repeater {
            model: bar.tintModes
            delegate: ToolButton {
                required property string modelData
                required property int index
                objectName: "tint_" + modelData
                text: modelData
                checkable: true
                checked: bar.tint === modelData
                ButtonGroup.group: tints
                onClicked: bar.tintChosen(modelData)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Tint: %1 (%2)").arg(modelData).arg(index + 1)
            }
          }
        }
        ToolSeparator { visible: bar.tintModes.length > 0 }
        ToolButton { objectName: "gridToggle"; text: qsTr("Grid"); checkable: true; checked: bar.viewport.showGrid; onToggled: bar.viewport.showGrid = checked; ToolTip.visible: hovered; ToolTip.text: qsTr("Ground grid (G)") }
        ToolButton { objectName: "axesToggle"; text: qsTr("Axes"); checkable: true; checked: bar.viewport.showAxes; onToggled: bar.viewport.showAxes = checked; ToolTip.visible: hovered; ToolTip.text: qsTr("Axis gizmo (A)") }
        ToolButton { text: qsTr("Frame"); onClicked: bar.viewport.frameAll(); ToolTip.visible: hovered; ToolTip.text: qsTr("Frame all (F)") }
        ToolButton { objectName: "pbrToggle"; visible: bar.lookApplies; text: qsTr("PBR"); checkable: true; checked: bar.viewport.look === "pbr"; onToggled: bar.viewport.look = checked ? "pbr" : "review"; ToolTip.visible: hovered; ToolTip.text: qsTr("Physically based look: the file's materials and lights (L)") }
        ToolButton { objectName: "flipUpButton"; visible: bar.splatUp !== ""; text: qsTr("Flip up"); onClicked: bar.flipSplatUp(); ToolTip.visible: hovered; ToolTip.text: qsTr("Turn the splat scene over: up is %1 in the file (U)").arg(bar.splatUp) }
        ToolButton { text: qsTr("Turntable"); checkable: true; checked: bar.turntable; onToggled: bar.turntableToggled(checked); ToolTip.visible: hovered; ToolTip.text: qsTr("Spin the camera (T)") }
        Item { Layout.fillWidth: true }
    }
}
