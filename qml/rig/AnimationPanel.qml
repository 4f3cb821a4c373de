// The model's animations and the transport: play/pause/stop, loop, speed,
// step a frame, a timeline with the clip's key times, mute the idles.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "animationPanel"
    required property PlaybackController playback
    title: qsTr("Animation")

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        ListView {
            id: clips
            objectName: "animationList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.minimumHeight: 60
            clip: true
            model: panel.playback.animations
            ScrollBar.vertical: ScrollBar {}
            delegate: ItemDelegate {
                id: clip
                required property string name
                required property real periodMs
                required property bool looping
                required property bool autoPlay
                required property var keyTimes
                required property bool gltf
                objectName: "clip_" + name
                width: ListView.view.width
                highlighted: panel.playback.playingAnimation === name
                onClicked: panel.playback.play(name)
                // In a narrow panel both labels shorten (elided) rather than run past its edge.
                contentItem: RowLayout {
                    Label { text: clip.name; font.bold: clip.highlighted; elide: Text.ElideRight; Layout.fillWidth: true }
                    Label {
                        text: (clip.periodMs / 1000).toFixed(2) + " s" + (clip.looping ? " · loop" : " · once")
                              + (clip.autoPlay ? " · idle" : "") + (clip.gltf ? " · glTF" : "")
                        font.pixelSize: 11
                        opacity: 0.7
                        elide: Text.ElideRight
                        horizontalAlignment: Text.AlignRight
                        Layout.fillWidth: true
                        Layout.maximumWidth: implicitWidth
                    }
                }
            }
            EmptyState {
                visible: clips.count === 0
                text: qsTr("Animations of the open rig or glTF file are listed here.")
            }
        }

        Timeline {
            objectName: "timeline"
            Layout.fillWidth: true
            playback: panel.playback
            keyTimes: {
                const i = panel.playback.animationNames.indexOf(panel.playback.playingAnimation)
                if (i < 0) return []
                return clips.itemAtIndex(i) ? clips.itemAtIndex(i).keyTimes : []
            }
        }

        // The transport in one row, or two (play and stop over the frame
        // steps) where the panel is narrower than the row, as at 700 px.
        GridLayout {
            id: transport
            objectName: "transport"
            readonly property bool narrow: parent.width < stepBack.implicitWidth + playButton.implicitWidth
                                           + stopButton.implicitWidth + stepForward.implicitWidth + 3 * columnSpacing
            Layout.alignment: Qt.AlignHCenter
            Layout.fillWidth: narrow
            columns: narrow ? 2 : 4
            columnSpacing: 2
            rowSpacing: 2
            enabled: clips.count > 0
            ToolButton {
                id: stepBack
                objectName: "stepBack"
                text: "‹ 1f"
                Layout.row: transport.narrow ? 1 : 0
                Layout.column: 0
                Layout.fillWidth: transport.narrow
                enabled: panel.playback.playingAnimation.length > 0
                onClicked: panel.playback.stepFrame(-1)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Previous frame (←)")
            }
            Button {
                id: playButton
                objectName: "playButton"
                Layout.row: 0
                Layout.column: transport.narrow ? 0 : 1
                Layout.fillWidth: transport.narrow
                text: panel.playback.playingAnimation.length > 0 && !panel.playback.paused ? qsTr("Pause") : qsTr("Play")
                onClicked: {
                    if (panel.playback.playingAnimation.length === 0)
                        panel.playback.play(clips.currentIndex >= 0 ? panel.playback.animationNames[clips.currentIndex] : panel.playback.animationNames[0])
                    else
                        panel.playback.togglePause()
                }
            }
            Button {
                id: stopButton
                objectName: "stopButton"
                Layout.row: 0
                Layout.column: transport.narrow ? 1 : 2
                Layout.fillWidth: transport.narrow
                text: qsTr("Stop")
                enabled: panel.playback.playingAnimation.length > 0
                onClicked: panel.playback.stop()
            }
            ToolButton {
                id: stepForward
                objectName: "stepForward"
                text: "1f ›"
                Layout.row: transport.narrow ? 1 : 0
                Layout.column: transport.narrow ? 1 : 3
                Layout.fillWidth: transport.narrow
                enabled: panel.playback.playingAnimation.length > 0
                onClicked: panel.playback.stepFrame(1)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Next frame (→)")
            }
        }

        GridLayout {
            columns: 3
            Layout.fillWidth: true
            enabled: clips.count > 0
            CheckBox {
                objectName: "loopToggle"
                text: qsTr("Loop")
                enabled: panel.playback.playingAnimation.length > 0
                checked: panel.playback.loop
                onToggled: panel.playback.loop = checked
                Layout.columnSpan: 1
            }
            CheckBox {
                objectName: "muteIdles"
                text: qsTr("Mute idles")
                checked: panel.playback.autoPlayMuted
                onToggled: panel.playback.autoPlayMuted = checked
                Layout.columnSpan: 2
            }
            Label { text: qsTr("Speed") }
            Slider {
                id: speed
                objectName: "speedSlider"
                Layout.fillWidth: true
                from: 0.1
                to: 4
                value: panel.playback.speed
                onMoved: panel.playback.speed = value
            }
            Label { text: panel.playback.speed.toFixed(1) + "×"; font.family: "monospace" }
        }
    }
}
