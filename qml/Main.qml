// The RigLens main window: menu bar and tool bar on top, scene/joints on the
// left, the engine's viewport in the middle, animation/expression/memory on
// the right, a status bar below. Dark theme (Fusion) for 3D work.
import QtQml.Models
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens.App
import QtQuick.Dialogs

ApplicationWindow {
    id: window
    objectName: "mainWindow"

    // Set from C++ (app/shell): the controller that owns documents and settings.
    required property AppController controller
    readonly property var rigTints: ["color", "part", "joint", "normals", "wireframe", "sockets"]
    // The tints of what is open: the rig's, or the character's (joint, uv, height, flat, normals).
    readonly property var tintModes: controller.mode === AppController.Splats ? [] : characterMode ? controller.character.tints : rigTints
    readonly property string tint: characterMode ? controller.character.tint : viewportItem.tint
    // Lights the PBR look with an environment map (or "studio"); the status
    // line says what lights it, the error banner why a file was refused.
    function loadEnvironment(location) {
        const result = viewportItem.loadEnvironment(location)
        if (result.ok) window.controller.reportStatus(result.message)
        else window.controller.reportError(result.message)
    }
    function setTint(mode) {
        if (characterMode)
            controller.character.tint = mode
        else
            viewportItem.tint = mode
    }
    property bool turntable: false
    // A splat character or scene is open: the character panels replace the rig's.
    readonly property bool characterMode: controller.mode === AppController.Character || controller.mode === AppController.Splats
    readonly property bool splatScene: controller.mode === AppController.Splats

    width: 1280
    height: 800
    // Down to 640x480: the side panels take a share of the width there (their
    // full width from 1280 up), the viewport keeps the rest.
    minimumWidth: 640
    minimumHeight: 480
    function sidePanelWidth(full, share) { return Math.max(180, Math.min(full, window.width * share)) }
    // Shown from C++ once its multisampling is set (app/shell/main_window.cpp).
    // The engine draws the viewport under the QML scene: the window clears to
    // the viewport's background, the panels are opaque.
    color: viewportItem.background
    title: controller.documentTitle.length > 0 ? controller.documentTitle + " — RigLens" : "RigLens"

    palette {
        window: Theme.window; windowText: Theme.text; base: Theme.base; alternateBase: Theme.alternateBase
        text: Theme.text; button: Theme.button; buttonText: Theme.text; brightText: Theme.brightText
        highlight: Theme.highlight; highlightedText: Theme.brightText; toolTipBase: Theme.toolTipBase; toolTipText: Theme.text
        placeholderText: Theme.placeholderText; mid: Theme.mid; dark: Theme.dark; light: Theme.light
    }

    function openShortcuts() { shortcutsDialog.open() }

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
            Action {
                objectName: "openFolderAction"
                text: qsTr("Open &Folder…")
                shortcut: "Ctrl+Shift+O"
                onTriggered: folderDialog.open()
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
            Action {
                objectName: "compareAction"
                text: qsTr("&Compare With…")
                shortcut: "Ctrl+Shift+C"
                enabled: window.controller.hasDocument && !window.characterMode
                onTriggered: compareDialog.open()
            }
            Action {
                objectName: "compareFolderAction"
                text: qsTr("Compare With &Folder…")
                enabled: window.controller.hasDocument && !window.characterMode
                onTriggered: compareFolderDialog.open()
            }
            Action {
                objectName: "closeCompareAction"
                text: qsTr("Close Comparison")
                enabled: window.controller.compare.active
                onTriggered: window.controller.compare.close()
            }
            MenuSeparator {}
            Action {
                objectName: "reloadAction"
                text: qsTr("Re&load")
                shortcut: StandardKey.Refresh
                enabled: window.controller.hasDocument && !window.controller.loading
                onTriggered: window.controller.reload()
            }
            Action {
                objectName: "watchAction"
                text: qsTr("&Watch for Changes")
                checkable: true
                checked: window.controller.watching
                onTriggered: window.controller.watching = checked
            }
            MenuSeparator {}
            Action {
                objectName: "exportAction"
                text: qsTr("&Export GLB…")
                shortcut: "Ctrl+E"
                enabled: window.controller.exporter.canExport
                onTriggered: exportOptions.open()
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
        Menu {
            title: qsTr("&View")
            Repeater {
                model: window.tintModes
                delegate: MenuItem {
                    required property string modelData
                    required property int index
                    text: qsTr("Tint: %1").arg(modelData) + "\t" + (index + 1)
                    checkable: true
                    checked: window.tint === modelData
                    onTriggered: window.setTint(modelData)
                }
            }
            MenuSeparator {}
            MenuItem {
                objectName: "pbrLookItem"
                text: qsTr("PBR look") + "\tL"
                checkable: true
                checked: viewportItem.look === "pbr"
                onTriggered: viewportItem.look = checked ? "pbr" : "review"
            }
            Menu {
                objectName: "toneMapMenu"
                title: qsTr("Tone mapping")
                enabled: viewportItem.look === "pbr"
                MenuItem { text: qsTr("Khronos PBR Neutral"); checkable: true; checked: viewportItem.toneMap === "neutral"; onTriggered: viewportItem.toneMap = "neutral" }
                MenuItem { text: qsTr("ACES filmic"); checkable: true; checked: viewportItem.toneMap === "aces"; onTriggered: viewportItem.toneMap = "aces" }
                MenuItem { text: qsTr("None (clamp)"); checkable: true; checked: viewportItem.toneMap === "none"; onTriggered: viewportItem.toneMap = "none" }
                MenuSeparator {}
                MenuItem { text: qsTr("Exposure +½ stop") + "\t]"; onTriggered: viewportItem.exposure += 0.5 }
                MenuItem { text: qsTr("Exposure −½ stop") + "\t["; onTriggered: viewportItem.exposure -= 0.5 }
                MenuItem { text: qsTr("Exposure: reset (now %1 EV)").arg(viewportItem.exposure); onTriggered: viewportItem.exposure = 0 }
            }
            Menu {
                objectName: "environmentMenu"
                title: qsTr("Environment (%1)").arg(viewportItem.environment)
                enabled: viewportItem.look === "pbr"
                MenuItem { text: qsTr("Open .hdr / .exr…"); onTriggered: environmentDialog.open() }
                MenuItem { text: qsTr("Studio"); checkable: true; checked: viewportItem.environment === "studio"; onTriggered: window.loadEnvironment("studio") }
                MenuItem { text: qsTr("Show as background") + "\tB"; checkable: true; checked: viewportItem.environmentBackground; onTriggered: viewportItem.environmentBackground = checked }
                MenuItem { text: qsTr("Turn 15° left") + "\t,"; onTriggered: viewportItem.environmentRotation -= 15 }
                MenuItem { text: qsTr("Turn 15° right") + "\t."; onTriggered: viewportItem.environmentRotation += 15 }
            }
            MenuSeparator {}
            MenuItem { text: qsTr("Ground grid") + "\tG"; checkable: true; checked: viewportItem.showGrid; onTriggered: viewportItem.showGrid = checked }
            MenuItem { text: qsTr("Axes") + "\tA"; checkable: true; checked: viewportItem.showAxes; onTriggered: viewportItem.showAxes = checked }
            MenuItem { text: qsTr("Turntable") + "\tT"; checkable: true; checked: window.turntable; onTriggered: window.turntable = checked }
            MenuItem { text: qsTr("Frame all") + "\tF"; onTriggered: { viewportItem.fileCamera = ""; viewportItem.frameAll() } }
            Menu {
                id: cameraMenuItems
                objectName: "cameraMenu"
                title: qsTr("Camera")
                enabled: window.controller.cameraNames.length > 0
                MenuItem {
                    text: qsTr("Orbit")
                    checkable: true
                    checked: viewportItem.fileCamera === ""
                    onTriggered: viewportItem.fileCamera = ""
                }
                Instantiator {
                    model: window.controller.cameraNames
                    delegate: MenuItem {
                        required property string modelData
                        text: qsTr("File camera: %1").arg(modelData)
                        checkable: true
                        checked: viewportItem.fileCamera === modelData
                        onTriggered: viewportItem.fileCamera = modelData
                    }
                    onObjectAdded: (index, object) => cameraMenuItems.insertItem(index + 1, object)
                    onObjectRemoved: (index, object) => cameraMenuItems.removeItem(object)
                }
            }
            MenuItem {
                objectName: "flipUpItem"
                text: qsTr("Splats: Flip Up (up is %1)").arg(window.controller.character.splatUp || "+y") + "\tU"
                enabled: window.controller.character.splatUp !== ""
                onTriggered: window.controller.character.flipSplatUp()
            }
        }
        Menu {
            objectName: "characterMenu"
            title: qsTr("&Character")
            enabled: window.controller.mode === AppController.Character
            Action {
                objectName: "loadControlsAction"
                text: qsTr("&Load Controls…")
                onTriggered: loadControlsDialog.open()
            }
            Action {
                objectName: "saveControlsAction"
                text: qsTr("&Save Controls…")
                onTriggered: saveControlsDialog.open()
            }
            Action {
                objectName: "loadBodyPoseAction"
                text: qsTr("Load &Body Pose…")
                onTriggered: loadBodyPoseDialog.open()
            }
            Action { text: qsTr("Clear Body Pose"); onTriggered: window.controller.character.clearBodyPose() }
            MenuSeparator {}
            Action { text: qsTr("Reset Expression"); onTriggered: window.controller.character.resetChannels() }
            Action { text: qsTr("Reset Gaze"); onTriggered: window.controller.character.resetGaze() }
            Action { text: qsTr("Reset Joints"); onTriggered: window.controller.character.resetJoints() }
        }
        Menu {
            title: qsTr("&Help")
            Action { text: qsTr("&Keyboard Shortcuts"); shortcut: "F1"; onTriggered: shortcutsDialog.open() }
        }
    }

    header: ViewToolBar {
        viewport: viewportItem
        tintModes: window.tintModes
        tint: window.tint
        onTintChosen: (mode) => window.setTint(mode)
        onTurntableToggled: (on) => window.turntable = on
        turntable: window.turntable
        splatUp: window.controller.character.splatUp
        onFlipSplatUp: window.controller.character.flipSplatUp()
        lookApplies: window.controller.mode === AppController.Rig
    }

    footer: StatusBar {
        controller: window.controller
        viewport: viewportItem
    }

    // Shortcuts that are not menu actions (the menus show the letters).
    Repeater {
        model: window.tintModes
        delegate: Item {
            required property string modelData
            required property int index
            Shortcut { sequence: String(index + 1); onActivated: window.setTint(modelData) }
        }
    }
    Shortcut { sequence: "G"; onActivated: viewportItem.showGrid = !viewportItem.showGrid }
    Shortcut { sequence: "A"; onActivated: viewportItem.showAxes = !viewportItem.showAxes }
    Shortcut { sequence: "U"; onActivated: window.controller.character.flipSplatUp() }
    Shortcut { sequence: "L"; onActivated: viewportItem.look = viewportItem.look === "pbr" ? "review" : "pbr" }
    Shortcut { sequence: "]"; onActivated: viewportItem.exposure += 0.5 }
    Shortcut { sequence: "B"; onActivated: viewportItem.environmentBackground = !viewportItem.environmentBackground }
    Shortcut { sequence: ","; onActivated: viewportItem.environmentRotation -= 15 }
    Shortcut { sequence: "."; onActivated: viewportItem.environmentRotation += 15 }
    Shortcut { sequence: "["; onActivated: viewportItem.exposure -= 0.5 }
    Shortcut { sequence: "F"; onActivated: viewportItem.frameAll() }
    Shortcut { sequence: "T"; onActivated: window.turntable = !window.turntable }
    Shortcut { sequence: "Space"; onActivated: window.controller.playback.togglePause() }
    Shortcut { sequence: "Left"; onActivated: window.controller.playback.stepFrame(-1) }
    Shortcut { sequence: "Right"; onActivated: window.controller.playback.stepFrame(1) }
    Shortcut { sequence: "S"; onActivated: window.controller.playback.stop() }
    Shortcut { sequence: "R"; onActivated: window.controller.resetAllJoints() }
    Shortcut { sequence: "M"; onActivated: window.controller.playback.autoPlayMuted = !window.controller.playback.autoPlayMuted }
    Shortcut { sequence: "Escape"; onActivated: window.controller.selectedPart = -1 }

    Timer {
        interval: 16
        running: window.turntable
        repeat: true
        onTriggered: viewportItem.yaw = viewportItem.yaw + 0.5
    }

    FileDialog {
        id: openDialog
        title: qsTr("Open a rig, run record, model, character pack, splat scene")
        nameFilters: window.controller.openNameFilters  // the reader table's (core/open/)
        onAccepted: window.controller.open(selectedFile)
    }
    FolderDialog {
        id: folderDialog
        title: qsTr("Open a run folder or a character bundle")
        onAccepted: window.controller.open(selectedFolder)
    }
    FileDialog {
        id: compareDialog
        title: qsTr("Compare the open run with another version (a rig.json, run record or model)")
        nameFilters: window.controller.openNameFilters
        onAccepted: window.controller.compare.open(selectedFile)
    }
    FolderDialog {
        id: compareFolderDialog
        title: qsTr("Compare the open run with another run folder")
        onAccepted: window.controller.compare.open(selectedFolder)
    }
    FileDialog {
        id: environmentDialog
        title: qsTr("Light the PBR look with an environment map")
        nameFilters: [qsTr("Environment maps (*.hdr *.exr)"), qsTr("All files (*)")]
        onAccepted: window.loadEnvironment(selectedFile)
    }
    FileDialog {
        id: loadControlsDialog
        title: qsTr("Load a character's controls ({name: value} or an array)")
        nameFilters: [qsTr("Controls (*.json)"), qsTr("All files (*)")]
        onAccepted: window.controller.character.loadControls(selectedFile)
    }
    FileDialog {
        id: loadBodyPoseDialog
        title: qsTr("Load a body pose ({bones: [{name, rotation: [w,x,y,z]}], rootPos: [x,y,z]})")
        nameFilters: [qsTr("Body pose (*.json)"), qsTr("All files (*)")]
        onAccepted: window.controller.character.loadBodyPose(selectedFile)
    }
    FileDialog {
        id: saveControlsDialog
        title: qsTr("Save the character's controls (riglens-cli render --controls reads them)")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "json"
        nameFilters: [qsTr("Controls (*.json)")]
        onAccepted: window.controller.character.saveControls(selectedFile)
    }
    ExportDialog {
        id: exportOptions
        exporter: window.controller.exporter
        anchors.centerIn: parent
    }
    FileDialog {
        id: screenshotDialog
        title: qsTr("Save the viewport as PNG")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "png"
        nameFilters: [qsTr("PNG image (*.png)")]
        onAccepted: window.controller.exporter.saveViewportScreenshot(viewportItem, selectedFile)
    }
    ShortcutsDialog {
        id: shortcutsDialog
        anchors.centerIn: parent
    }

    SplitView {
        anchors.fill: parent
        orientation: Qt.Horizontal

        SplitView {
            objectName: "leftPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: window.sidePanelWidth(290, 0.23)
            SplitView.minimumWidth: 170
            visible: !window.characterMode
            LazyPanel {
                SplitView.preferredHeight: window.height * 0.38; SplitView.minimumHeight: 120
                sourceComponent: ScenePanel { controller: window.controller }
            }
            LazyPanel {
                SplitView.fillHeight: true; SplitView.minimumHeight: 150
                sourceComponent: JointsPanel { controller: window.controller }
            }
            LazyPanel {
                visible: window.controller.avatar.active
                SplitView.preferredHeight: window.height * 0.3
                SplitView.minimumHeight: 120
                sourceComponent: AvatarPanel { avatar: window.controller.avatar }
            }
        }
        SplitView {
            objectName: "characterLeftPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: window.sidePanelWidth(320, 0.25)
            SplitView.minimumWidth: 170
            // A splat scene has no expression channels: the viewport takes the room.
            visible: window.characterMode && !window.splatScene
            LazyPanel {
                SplitView.fillHeight: true; SplitView.minimumHeight: 200
                sourceComponent: ExpressionPanel { character: window.controller.character }
            }
        }

        // The viewport over the Problems panel, in both modes.
        SplitView {
            objectName: "centerPanel"
            orientation: Qt.Vertical
            SplitView.fillWidth: true
            SplitView.minimumWidth: 240
            Viewport {
                id: viewportItem
                objectName: "viewport"
                SplitView.fillHeight: true
                SplitView.minimumHeight: 240
            }
            ProblemsPanel {
                controller: window.controller
                SplitView.preferredHeight: 130
                SplitView.minimumHeight: 60
            }
        }

        SplitView {
            objectName: "rightPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: window.sidePanelWidth(320, 0.25)
            SplitView.minimumWidth: 170
            visible: !window.characterMode
            LazyPanel {
                SplitView.preferredHeight: window.height * 0.5; SplitView.minimumHeight: 220
                sourceComponent: AnimationPanel { playback: window.controller.playback }
            }
            LazyPanel {
                visible: window.controller.compare.active
                SplitView.preferredHeight: window.height * 0.3
                SplitView.minimumHeight: 120
                sourceComponent: ComparePanel { compare: window.controller.compare }
            }
            LazyPanel {
                SplitView.fillHeight: true; SplitView.minimumHeight: 120
                sourceComponent: MemoryPanel { controller: window.controller }
            }
        }
        SplitView {
            objectName: "characterRightPanel"
            orientation: Qt.Vertical
            SplitView.preferredWidth: window.sidePanelWidth(320, 0.25)
            SplitView.minimumWidth: 170
            visible: window.characterMode
            // The look (tint, sigma, opacity, gaze) and the joints are a rig's:
            // a splat scene shows what it drew and what it holds.
            LazyPanel {
                visible: !window.splatScene
                SplitView.preferredHeight: window.height * 0.36; SplitView.minimumHeight: 110
                sourceComponent: CharacterLookPanel { character: window.controller.character }
            }
            LazyPanel {
                visible: !window.splatScene
                SplitView.preferredHeight: window.height * 0.25; SplitView.minimumHeight: 70
                sourceComponent: CharacterJointsPanel { character: window.controller.character }
            }
            LazyPanel {
                SplitView.preferredHeight: window.height * (window.splatScene ? 0.5 : 0.14); SplitView.minimumHeight: 80
                sourceComponent: CharacterFramePanel { character: window.controller.character }
            }
            LazyPanel {
                SplitView.fillHeight: true; SplitView.minimumHeight: 80
                sourceComponent: CharacterMemoryPanel { controller: window.controller; character: window.controller.character }
            }
        }
    }

    ErrorBanner {
        objectName: "errorBanner"
        anchors { left: parent.left; right: parent.right; top: parent.top; margins: 12 }
        message: window.controller.lastError
        onDismissed: window.controller.clearError()
    }
}
