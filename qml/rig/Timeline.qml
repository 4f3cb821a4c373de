// Scrub the playing clip: the current time, the period, the key times marked.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

ColumnLayout {
    id: timeline
    required property PlaybackController playback
    property var keyTimes: []
    readonly property bool active: playback.playingAnimation.length > 0
    spacing: 0
    enabled: active

    Slider {
        id: scrub
        objectName: "timelineSlider"
        Layout.fillWidth: true
        from: 0
        to: Math.max(timeline.playback.playPeriodMs, 1)
        value: timeline.playback.playTimeMs
        onMoved: {
            timeline.playback.paused = true
            timeline.playback.seek(value)
        }
        // Key times as ticks under the groove.
        Repeater {
            model: timeline.keyTimes
            delegate: Rectangle {
                required property real modelData
                width: 2
                height: 6
                color: Theme.keyTick
                y: scrub.height - height
                x: scrub.leftPadding + (modelData / scrub.to) * (scrub.availableWidth) - width / 2
            }
        }
    }
    Label {
        objectName: "timelineTime"
        Layout.alignment: Qt.AlignHCenter
        text: timeline.active
              ? qsTr("%1 / %2 ms").arg(timeline.playback.playTimeMs.toFixed(0)).arg(timeline.playback.playPeriodMs.toFixed(0))
              : qsTr("no clip playing")
        font.family: "monospace"
        font.pixelSize: 11
        opacity: 0.8
    }
}
