// A dismissable banner listing what went wrong (loader messages name the
// file and the problem). The previous model stays loaded underneath.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Pane {
    id: banner
    property string message
    signal dismissed()

    visible: message.length > 0
    padding: 10
    background: Rectangle { color: "#5c1f24"; radius: 4; border.color: "#a33a44" }

    RowLayout {
        anchors.fill: parent
        Label {
            objectName: "errorText"
            Layout.fillWidth: true
            text: banner.message
            color: "#ffe3e3"
            wrapMode: Text.Wrap
        }
        Button {
            text: qsTr("Dismiss")
            onClicked: banner.dismissed()
        }
    }
}
