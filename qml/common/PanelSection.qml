// A titled panel section: a header bar and a content area filling the rest.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Pane {
    id: section
    property string title
    default property alias content: body.data
    padding: 0
    // A narrow window (down to 640 px) squeezes the side panels: what does not
    // fit is cut at the panel's edge, never drawn over the viewport.
    clip: true

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: header.implicitHeight + 12
            color: palette.alternateBase
            Label {
                id: header
                anchors { left: parent.left; leftMargin: 10; verticalCenter: parent.verticalCenter }
                text: section.title
                font.bold: true
            }
        }
        Item {
            id: body
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.margins: 8
        }
    }
}
