// CPU and GPU memory held for the open model.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

PanelSection {
    objectName: "memoryPanel"
    title: qsTr("Memory")
    implicitHeight: 110

    GridLayout {
        anchors.fill: parent
        columns: 2
        Label { text: qsTr("CPU") }
        Label {
            objectName: "cpuBytes"
            Layout.alignment: Qt.AlignRight
            text: ApplicationWindow.window.controller.formatBytes(ApplicationWindow.window.controller.cpuBytes)
        }
        Label { text: qsTr("GPU") }
        Label {
            objectName: "gpuBytes"
            Layout.alignment: Qt.AlignRight
            text: ApplicationWindow.window.controller.formatBytes(ApplicationWindow.window.controller.gpuBytes)
        }
    }
}
