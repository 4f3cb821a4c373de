// Embedding a rig in a Qt Quick 3D app: a View3D with a VoxelRig, an orbit
// camera and a slider per caller joint, generated from jointNames.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick3D
import QtQuick3D.Helpers
import RigLens.Quick3D

ApplicationWindow {
    id: window
    required property url rigSource
    // Frame the camera on each model loaded (else it stays at z = 100).
    property bool framed: true
    width: 1024
    height: 640
    visible: true
    title: "RigLens.Quick3D — " + rig.source

    RowLayout {
        anchors.fill: parent
        View3D {
            id: view
            objectName: "view"
            Layout.fillWidth: true
            Layout.fillHeight: true
            environment: SceneEnvironment {
                backgroundMode: SceneEnvironment.Color
                clearColor: "#20242c"
                antialiasingMode: SceneEnvironment.MSAA
            }
            Node {
                id: orbit
                eulerRotation: Qt.vector3d(-20, 35, 0)
                PerspectiveCamera { id: camera; z: 100; clipNear: 0.5; clipFar: 1000 }
            }
            DirectionalLight { eulerRotation: Qt.vector3d(-50, 30, 0); ambientColor: "#606060" }
            VoxelRig {
                id: rig
                objectName: "rig"
                source: window.rigSource
                // Frame what was loaded: the posed geometry's box fills the
                // view, whatever the model's units.
                onStatusChanged: if (status === VoxelRig.Ready) view.frame()
                Component.onCompleted: if (status === VoxelRig.Ready) view.frame()
            }
            function frame() {
                if (!window.framed) return
                const box = rig.posedBounds()
                if (box.radius === undefined || !(box.radius > 0)) return
                orbit.position = box.center
                camera.z = box.radius / Math.tan(camera.fieldOfView * Math.PI / 360) * 1.1
                camera.clipNear = box.radius * 0.01
                camera.clipFar = box.radius * 100
            }
            OrbitCameraController { anchors.fill: parent; origin: orbit; camera: camera }
        }
        ColumnLayout {
            Layout.fillWidth: false
            Layout.preferredWidth: 260
            Layout.margins: 8
            Label { text: rig.status === VoxelRig.Error ? rig.errorString : qsTr("Caller joints"); wrapMode: Text.Wrap; Layout.fillWidth: true }
            Repeater {
                model: rig.status === VoxelRig.Ready ? rig.jointNames("caller") : []
                delegate: ColumnLayout {
                    required property string modelData
                    readonly property var range: rig.jointRange(modelData)
                    Label { text: modelData }
                    Slider {
                        id: slider
                        from: range.min; to: range.max; value: rig.jointValue(modelData)
                        onMoved: rig.setJoint(modelData, value)
                        // The joint's value in the pose shown (animations included).
                        Connections {
                            target: rig
                            function onPoseChanged() { if (!slider.pressed) slider.value = rig.jointValue(modelData) }
                        }
                    }
                }
            }
            Repeater {
                model: rig.animations
                delegate: Button {
                    required property var modelData
                    visible: !modelData.autoPlay
                    text: qsTr("Play %1").arg(modelData.name)
                    onClicked: rig.play(modelData.name)
                }
            }
            Item { Layout.fillHeight: true }
        }
    }
}
