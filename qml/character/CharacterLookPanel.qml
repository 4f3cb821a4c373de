// How a splat character is shown and where it looks: decoded or the debug
// preview (with the last decode's timings), the preview's tint (joint, uv,
// height, flat, normals), gaussian sigma and opacity; the gaze per eye and
// look-at-a-point in head space.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "characterLookPanel"
    required property CharacterController character
    readonly property var gazeNames: [qsTr("Left pitch"), qsTr("Left yaw"), qsTr("Right pitch"), qsTr("Right yaw")]
    readonly property bool hasGaze: character.kind === "character" && character.rigBackend !== "orl"
    // Tint, sigma and opacity shape the debug preview; the decoders decide the decoded gaussians.
    readonly property bool previewLook: character.kind === "character" && !(character.decodedAvailable && character.showDecoded)
    // Disabled (not hidden) when the GPU cannot run the character passes.
    enabled: character.renderError.length === 0
    title: qsTr("Look and gaze")

    Flickable {
        anchors.fill: parent
        contentHeight: column.implicitHeight
        clip: true
        ScrollBar.vertical: ScrollBar {}
        ColumnLayout {
            id: column
            width: parent.width
            spacing: 4
            // A bundle with decoders: the decoded character, or the debug preview.
            // The switch and the branches take the panel's width, so their
            // labels elide in a narrow panel rather than run past it.
            RowLayout {
                visible: panel.character.decodedAvailable
                Layout.fillWidth: true
                Switch {
                    objectName: "showDecoded"
                    Layout.fillWidth: true
                    text: qsTr("Decoded character")
                    checked: panel.character.showDecoded
                    onToggled: panel.character.showDecoded = checked
                    ToolTip.visible: hovered
                    ToolTip.text: qsTr("Off: the debug preview (one gaussian per rig vertex)")
                }
            }
            Label {
                objectName: "decodeStats"
                visible: panel.character.decodedAvailable && panel.character.showDecoded && panel.character.decodeStats.pass !== undefined
                Layout.fillWidth: true
                wrapMode: Text.Wrap
                font.pixelSize: 11
                readonly property var s: panel.character.decodeStats
                text: qsTr("Last decode (%1): %2 ms — trunk %3, geom %4, appr %5 ms; runs %6 / %7 / %8")
                      .arg(s.pass).arg(Number(s.totalMs).toFixed(1)).arg(Number(s.trunkMs).toFixed(1))
                      .arg(Number(s.geomMs).toFixed(1)).arg(Number(s.apprMs).toFixed(1))
                      .arg(s.trunkRuns).arg(s.geomRuns).arg(s.apprRuns)
            }
            // Per-branch visibility of the decoded character. Repeaters sit in
            // positioners, never in a Layout (ViewToolBar.qml says why).
            Column {
                Layout.fillWidth: true
                Repeater {
                    model: panel.character.decodedAvailable && panel.character.showDecoded ? (panel.character.decodeStats.branches || []) : []
                    delegate: CheckBox {
                        required property var modelData
                        objectName: "branchVisible_" + modelData.name
                        width: parent ? parent.width : 0
                        text: qsTr("Branch %1 (%2 slots)").arg(modelData.name).arg(modelData.slots)
                        checked: panel.character.decodeStats.branches !== undefined && panel.character.branchVisible(modelData.name)
                        onToggled: panel.character.setBranchVisible(modelData.name, checked)
                    }
                }
            }
            Label {
                objectName: "decodeError"
                visible: panel.character.decodeError.length > 0
                Layout.fillWidth: true
                wrapMode: Text.Wrap
                color: Theme.refusal
                text: qsTr("Decoders: %1").arg(panel.character.decodeError)
            }
            RowLayout {
                Label { text: qsTr("Tint"); Layout.preferredWidth: 60 }
                ComboBox {
                    objectName: "characterTint"
                    Layout.fillWidth: true
                    enabled: panel.previewLook
                    model: panel.character.tints
                    currentIndex: panel.character.tints.indexOf(panel.character.tint)
                    onActivated: (index) => panel.character.tint = panel.character.tints[index]
                }
            }
            RowLayout {
                Label { text: qsTr("Sigma"); Layout.preferredWidth: 60 }
                Slider {
                    objectName: "characterSigma"
                    Layout.fillWidth: true
                    enabled: panel.previewLook
                    from: 0.0005; to: 0.01; stepSize: 0
                    value: panel.character.sigma
                    onMoved: panel.character.sigma = value
                }
                Label { objectName: "sigmaValue"; text: (panel.character.sigma * 1000).toFixed(1) + " mm"; font.pixelSize: 11; Layout.preferredWidth: 52 }
            }
            RowLayout {
                Label { text: qsTr("Opacity"); Layout.preferredWidth: 60 }
                Slider {
                    objectName: "characterOpacity"
                    Layout.fillWidth: true
                    enabled: panel.previewLook
                    from: 0; to: 1; stepSize: 0
                    value: panel.character.opacity
                    onMoved: panel.character.opacity = value
                }
                Label { text: panel.character.opacity.toFixed(2); font.pixelSize: 11; Layout.preferredWidth: 52 }
            }
            // GNM gaze; an ORL character's eyes are DNA controls (CTRL_L_eye.tx, ...) in the Expression panel.
            Label { text: qsTr("Gaze (degrees)"); font.bold: true; topPadding: 6; visible: panel.hasGaze }
            Column {
                Layout.fillWidth: true
                Repeater {
                    model: panel.hasGaze ? 4 : 0
                    delegate: RowLayout {
                        required property int index
                        width: parent ? parent.width : 0
                        Label { text: panel.gazeNames[index]; Layout.preferredWidth: 80; font.pixelSize: 11 }
                        Slider {
                            objectName: "gaze_" + index
                            Layout.fillWidth: true
                            from: -0.7; to: 0.7; stepSize: 0
                            value: panel.character.gaze[index]
                            onMoved: panel.character.setGaze(index, value)
                        }
                        Label { text: (panel.character.gaze[index] * 180 / Math.PI).toFixed(1); font.pixelSize: 11; Layout.preferredWidth: 40 }
                    }
                }
            }
            // Flows, not rows: in a narrow panel (180 px at 700 px wide) the
            // three fields and the two buttons wrap instead of widening the
            // column, and with it every slider, past the panel.
            Flow {
                visible: panel.hasGaze
                Layout.fillWidth: true
                spacing: 4
                Label { text: qsTr("Look at"); font.pixelSize: 11; height: lookX.height; verticalAlignment: Text.AlignVCenter }
                SpinBox { id: lookX; objectName: "lookX"; from: -200; to: 200; value: 0; editable: true; width: 76; ToolTip.visible: hovered; ToolTip.text: qsTr("x, cm (+ is the character's left)") }
                SpinBox { id: lookY; objectName: "lookY"; from: -200; to: 200; value: 0; editable: true; width: 76; ToolTip.visible: hovered; ToolTip.text: qsTr("y, cm (up)") }
                SpinBox { id: lookZ; objectName: "lookZ"; from: -200; to: 500; value: 60; editable: true; width: 76; ToolTip.visible: hovered; ToolTip.text: qsTr("z, cm (forward)") }
            }
            Flow {
                visible: panel.hasGaze
                Layout.fillWidth: true
                spacing: 4
                Button { objectName: "lookAt"; text: qsTr("Look there"); onClicked: panel.character.lookAt(lookX.value / 100, lookY.value / 100, lookZ.value / 100) }
                Button { text: qsTr("Reset gaze"); onClicked: panel.character.resetGaze() }
            }
        }
    }
}
