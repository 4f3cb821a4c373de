// Help → Keyboard Shortcuts.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Dialog {
    objectName: "shortcutsDialog"
    title: qsTr("Keyboard shortcuts")
    modal: true
    standardButtons: Dialog.Close

    // One row a shortcut, in a Column: Repeaters stay out of Layouts
    // (ViewToolBar.qml says why).
    Column {
        spacing: 4
        Repeater {
            model: [
                ["Ctrl+O", qsTr("Open a file")], ["Ctrl+Shift+O", qsTr("Open a run folder")],
                ["Ctrl+E", qsTr("Export GLB")], ["Ctrl+Shift+S", qsTr("Save the viewport as PNG")],
                ["1 … 6", qsTr("Tint: color, part, joint, normals, wireframe, sockets")],
                ["1 … 5", qsTr("Character tint: joint, uv, height, flat, normals")],
                ["G / A", qsTr("Ground grid / axes")], ["F", qsTr("Frame all")], ["T", qsTr("Turntable")], ["U", qsTr("Splats: flip up")],
                ["L", qsTr("Look: review / PBR")], ["[ / ]", qsTr("PBR exposure: half a stop down / up")],
                ["B", qsTr("PBR: the environment as background")], [", / .", qsTr("PBR: turn the environment 15° left / right")],
                ["Space", qsTr("Pause / resume the clip")], ["← / →", qsTr("Step one frame (1/30 s)")],
                ["S", qsTr("Stop the clip")], ["M", qsTr("Mute the autoPlay idles")],
                ["R", qsTr("Reset every joint to rest")], ["Esc", qsTr("Clear the selection")],
                [qsTr("Left drag"), qsTr("Orbit")], [qsTr("Right / middle drag"), qsTr("Pan")], [qsTr("Wheel"), qsTr("Dolly")],
                ["F1", qsTr("This sheet")], ["Ctrl+Q", qsTr("Quit")]
            ]
            delegate: Item {
                required property var modelData
                implicitWidth: row.implicitWidth
                implicitHeight: row.implicitHeight
                RowLayout {
                    id: row
                    anchors.fill: parent
                    Label { text: modelData[0]; font.bold: true; Layout.preferredWidth: 150 }
                    Label { text: modelData[1]; Layout.fillWidth: true }
                }
            }
        }
    }
}
