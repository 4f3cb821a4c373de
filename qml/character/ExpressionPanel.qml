// Expression channels of a splat character: GNM coefficients grouped by
// region (left_eye, right_eye, lower_face, tongue, pupils), or the 52 ARKit
// channels when the expression space is ARKit-52 or has an ARKit map. An ORL
// character shows its DNA's GUI controls grouped by widget (bipolar ones from
// -1), its raw controls, or ARKit-52 through the MetaHuman board. A filter
// box, a reset, and the refusal when ARKit is asked of a space that cannot
// take it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "expressionPanel"
    required property CharacterController character
    // Disabled (not hidden) when the GPU cannot run the character passes.
    enabled: character.renderError.length === 0
    title: qsTr("Expression")

    ColumnLayout {
        anchors.fill: parent
        spacing: 4
        visible: panel.character.kind === "character"

        // A Flow, not a row: in a narrow panel (180 px at 700 px wide) the
        // buttons wrap instead of widening the column past the panel.
        Flow {
            Layout.fillWidth: true
            spacing: 4
            ButtonGroup { id: modes }
            Button {
                objectName: "modeGnm"
                visible: panel.character.rigBackend !== "orl"
                text: qsTr("GNM regions")
                checkable: true
                checked: panel.character.channelMode === "gnm"
                ButtonGroup.group: modes
                onClicked: panel.character.setChannelMode("gnm")
            }
            Button {
                objectName: "modeGui"
                visible: panel.character.rigBackend === "orl"
                text: qsTr("DNA controls")
                checkable: true
                checked: panel.character.channelMode === "gui"
                ButtonGroup.group: modes
                onClicked: panel.character.setChannelMode("gui")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("The DNA's GUI controls, mapped to raw controls as RigLogic maps them")
            }
            Button {
                objectName: "modeRaw"
                visible: panel.character.rigBackend === "orl"
                text: qsTr("Raw")
                checkable: true
                checked: panel.character.channelMode === "raw"
                ButtonGroup.group: modes
                onClicked: panel.character.setChannelMode("raw")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("The DNA's raw controls, set as they are (no mapping, no clamp)")
            }
            Button {
                objectName: "modeArkit"
                text: qsTr("ARKit-52")
                checkable: true
                checked: panel.character.channelMode === "arkit"
                ButtonGroup.group: modes
                // Asking is allowed even without a map: the refusal says why.
                onClicked: { if (!panel.character.setChannelMode("arkit")) checked = false }
                ToolTip.visible: hovered
                ToolTip.text: panel.character.arkitAvailable ? qsTr("Drive the face with ARKit blendshape weights")
                                                             : qsTr("This character's expression space has no ARKit map")
            }
            Button {
                objectName: "resetChannels"
                text: qsTr("Reset")
                onClicked: panel.character.resetChannels()
            }
        }
        Label {
            objectName: "arkitRefusal"
            Layout.fillWidth: true
            visible: text.length > 0
            text: panel.character.refusal
            wrapMode: Text.Wrap
            color: Theme.refusal
            font.pixelSize: 11
            MouseArea { anchors.fill: parent; onClicked: panel.character.clearRefusal() }
        }
        TextField {
            objectName: "channelFilter"
            Layout.fillWidth: true
            placeholderText: qsTr("Filter channels (name or group)")
            text: panel.character.filter
            onTextEdited: panel.character.filter = text
        }
        ListView {
            id: channels
            objectName: "channelList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: panel.character.channels
            ScrollBar.vertical: ScrollBar {}
            section.property: "group"
            section.delegate: Label {
                required property string section
                text: section
                font.bold: true
                topPadding: 6
                opacity: 0.85
            }
            delegate: RowLayout {
                id: row
                required property string name
                required property real value
                required property real minimum
                required property real maximum
                required property int channel
                width: ListView.view.width
                spacing: 4
                Label { text: row.name; Layout.preferredWidth: Math.min(120, row.width / 3); elide: Text.ElideRight; font.pixelSize: 11 }
                Slider {
                    objectName: "channel_" + row.name
                    Layout.fillWidth: true
                    from: row.minimum
                    to: row.maximum
                    value: row.value
                    stepSize: 0
                    onMoved: panel.character.setChannel(row.channel, value)
                }
                Label { objectName: "channelValue_" + row.name; text: row.value.toFixed(2); font.family: "monospace"; font.pixelSize: 11; Layout.preferredWidth: 38 }
            }
        }
    }
    EmptyState {
        visible: panel.character.kind !== "character"
        text: panel.character.kind === "splats" ? qsTr("A splat scene has no expression channels.")
                                                 : qsTr("Expression channels appear when a character is open (a bundle folder or an .aosrig).")
    }
}
