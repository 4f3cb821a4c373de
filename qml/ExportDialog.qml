// Export options, then the file to write. The exporter runs off the GUI
// thread; the status bar reports the output path, the banner any error.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens.App
import QtQuick.Dialogs

Dialog {
    id: dialog
    objectName: "exportDialog"
    required property ExportController exporter
    title: qsTr("Export GLB")
    modal: true
    standardButtons: Dialog.Ok | Dialog.Cancel

    ColumnLayout {
        spacing: 10
        CheckBox {
            id: cubic
            text: qsTr("CUBICSPLINE where exact (translation channels)")
        }
        RowLayout {
            Label { text: qsTr("Max joint error") }
            TextField {
                id: tolerance
                text: "0.0001"
                validator: DoubleValidator { bottom: 1e-9; top: 1; notation: DoubleValidator.ScientificNotation }
                Layout.preferredWidth: 100
            }
            Label { text: qsTr("rad / voxel"); opacity: 0.7 }
        }
        Label {
            text: qsTr("Writes the .glb (or .gltf + .bin) and <name>.interface.json\nfor the caller joints. Lengths stay in voxel units.")
            opacity: 0.7
        }
    }

    onAccepted: fileDialog.open()

    FileDialog {
        id: fileDialog
        title: qsTr("Export GLB")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "glb"
        nameFilters: [qsTr("glTF binary (*.glb)"), qsTr("glTF + bin (*.gltf)")]
        onAccepted: dialog.exporter.exportGlb(selectedFile, cubic.checked, Number(tolerance.text))
    }
}
