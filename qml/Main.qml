// The RigLens main window: menu bar, scene/joints on the left, the viewport
// in the middle, animation/expression/memory on the right.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Dialogs

ApplicationWindow {
    id: window
    objectName: "mainWindow"

    // Set from C++ (app/gui): the controller that owns documents and settings.
    required property QtObject controller

    width: 1280
    height: 800
    visible: true
    // The engine draws the viewport under the QML scene: the window clears to
    // the viewport's background, the panels are opaque.
    color: "#20262e"
    title: controller.documentTitle.length > 0
           ? controller.documentTitle + " — RigLens"
           : "RigLens"

    menuBar: MenuBar {
        Menu {
            objectName: "fileMenu"
            title: qsTr("&File")
            Action {
                objectName: "openAction"
                text: qsTr("&Open…")
                shortcut: StandardKey.Open
                onTriggered: openDialog.open()
            }
            Menu {
                id: recentMenu
                objectName: "recentMenu"
                title: qsTr("Open &Recent")
                enabled: window.controller.recentFiles.length > 0
                Repeater {
                    model: window.controller.recentFiles
                    delegate: MenuItem {
                        required property string modelData
                        text: modelData
                        onTriggered: window.controller.open(modelData)
                    }
                }
                MenuSeparator {}
                Action {
                    text: qsTr("Clear Recent")
                    onTriggered: window.controller.clearRecentFiles()
                }
            }
            MenuSeparator {}
            Action {
                objectName: "exportAction"
                text: qsTr("&Export GLB…")
                shortcut: "Ctrl+E"
                // Enabled once a rig is loaded (nothing to export before).
                enabled: window.controller.canExport
                onTriggered: exportDialog.open()
            }
            Action {
                objectName: "screenshotAction"
                text: qsTr("&Screenshot…")
                shortcut: "Ctrl+Shift+S"
                onTriggered: screenshotDialog.open()
            }
            MenuSeparator {}
            Action {
                objectName: "quitAction"
                text: qsTr("&Quit")
                shortcut: StandardKey.Quit
                onTriggered: Qt.quit()
            }
        }
    }

    FileDialog {
        id: openDialog
        title: qsTr("Open a run, rig.json, run record or .glb")
        nameFilters: [qsTr("RigLens inputs (*.json *.glb *.gltf)"), qsTr("All files (*)")]
        onAccepted: window.controller.open(selectedFile)
    }
    FileDialog {
        id: exportDialog
        title: qsTr("Export GLB")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "glb"
        nameFilters: [qsTr("glTF binary (*.glb)"), qsTr("glTF + bin (*.gltf)")]
        onAccepted: window.controller.exportGlb(selectedFile)
    }
    FileDialog {
        id: screenshotDialog
        title: qsTr("Save a screenshot")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "png"
        nameFilters: [qsTr("PNG image (*.png)")]
        onAccepted: window.controller.saveScreenshot(window, selectedFile)
    }

    SplitView {
        anchors.fill: parent
        orientation: Qt.Horizontal

        SplitView {
            objectName: "leftPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: 280
            SplitView.minimumWidth: 200
            ScenePanel { SplitView.preferredHeight: window.height * 0.4; SplitView.minimumHeight: 120 }
            JointsPanel { SplitView.fillHeight: true; SplitView.minimumHeight: 120 }
        }

        Viewport {
            id: viewportItem
            objectName: "viewport"
            SplitView.fillWidth: true
            SplitView.minimumWidth: 320
        }

        SplitView {
            objectName: "rightPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: 300
            SplitView.minimumWidth: 220
            AnimationPanel { SplitView.preferredHeight: window.height * 0.4; SplitView.minimumHeight: 120 }
            ExpressionPanel { SplitView.fillHeight: true; SplitView.minimumHeight: 100 }
            MemoryPanel { SplitView.preferredHeight: implicitHeight; SplitView.minimumHeight: implicitHeight }
        }
    }

    ErrorBanner {
        objectName: "errorBanner"
        anchors { left: parent.left; right: parent.right; top: parent.top; margins: 12 }
        message: window.controller.lastError
        onDismissed: window.controller.clearError()
    }
}
