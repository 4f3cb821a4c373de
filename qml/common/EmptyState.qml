// What a panel shows while it has nothing to list: says what will appear.
import QtQuick
import QtQuick.Controls

Label {
    anchors.centerIn: parent
    width: parent.width - 16
    horizontalAlignment: Text.AlignHCenter
    wrapMode: Text.Wrap
    opacity: 0.6
}
