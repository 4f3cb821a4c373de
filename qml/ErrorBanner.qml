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
    background: Rectangle { color: Theme.bannerBackground; radius: 4; border.color: Theme.bannerBorder }

    RowLayout {
        anchors.fill: parent
        Label {
            objectName: "errorText"
            Layout.fillWidth: true
            text: banner.message
            color: Theme.bannerText
            wrapMode: Text.Wrap
        }
        Button {
            text: qsTr("Dismiss")
            onClicked: banner.dismissed()
        }
    }
}
