// A VRM avatar's expressions (VRM 0.x blend shape groups, VRM 1.0
// expressions): one slider per expression, 0 to 1, driving the morph
// targets it binds (a binary expression snaps at 0.5, as VRM says), and a
// reset. Shown only while the open model is a VRM avatar.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import RigLens
import RigLens.App

PanelSection {
    id: panel
    objectName: "avatarPanel"
    required property AvatarController avatar
    title: qsTr("Expression (VRM %1)").arg(avatar.version)

    ColumnLayout {
        anchors.fill: parent
        spacing: 4
        RowLayout {
            Layout.fillWidth: true
            Label {
                text: qsTr("%n expression(s)", "", panel.avatar.expressions.length)
                color: palette.placeholderText
                Layout.fillWidth: true
            }
            Button {
                objectName: "resetExpressions"
                text: qsTr("Reset")
                onClicked: panel.avatar.resetExpressions()
            }
        }
        RowsListView {
            objectName: "expressionList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 2
            rows: panel.avatar.expressions
            delegate: RowLayout {
                id: expression
                required property int index
                readonly property var row: ListView.view.rows[index] || ({})
                objectName: "expression_" + row.name
                width: ListView.view.width
                spacing: 6
                Label {
                    text: expression.row.name || ""
                    font.bold: !!expression.row.preset
                    elide: Text.ElideRight
                    Layout.preferredWidth: 96
                    ToolTip.visible: nameArea.containsMouse
                    ToolTip.text: qsTr("%1, %n morph bind(s)%2", "", expression.row.binds)
                                  .arg(expression.row.preset ? qsTr("VRM preset") : qsTr("custom"))
                                  .arg(expression.row.binary ? qsTr(", binary") : "")
                    MouseArea { id: nameArea; anchors.fill: parent; hoverEnabled: true }
                }
                Slider {
                    objectName: "expressionSlider_" + expression.row.name
                    Layout.fillWidth: true
                    from: 0
                    to: 1
                    value: expression.row.value || 0
                    onMoved: panel.avatar.setExpression(expression.row.name, value)
                }
                Label {
                    text: Number(expression.row.value || 0).toFixed(2)
                    font.family: "monospace"
                }
            }
        }
    }
}
