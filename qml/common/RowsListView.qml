// A list of rows that a C++ property replaces whole and often: a frame
// report's passes (every frame), a memory report's parts and buffers (every
// document), a comparison's differences (every pose). Qt 6.4's ListView,
// given any new model value - an array, or even a new row count - connects
// its delegate model's delegateChanged once more and never drops the old
// connection (QQuickItemView::setModel): about 150 bytes kept for every
// assignment, the soak's last ~3 KB a round (docs/daily-use.md). So the
// model here is one ListModel that lives as long as the view and only gains
// or loses empty slots when the number of rows changes; each delegate reads
// its row as `rows[index]`, so the delegates stay and their bindings update.
// `rows[index]` is undefined for a moment while the rows shrink: delegates
// read its fields with a fallback.
import QtQuick
import QtQuick.Controls

ListView {
    id: view
    property var rows: []
    clip: true
    model: ListModel {
        id: slots
    }
    ScrollBar.vertical: ScrollBar {}

    function matchSlotsToRows() {
        const wanted = view.rows ? view.rows.length : 0
        if (slots.count > wanted)
            slots.remove(wanted, slots.count - wanted)
        while (slots.count < wanted)
            slots.append({})
    }
    onRowsChanged: matchSlotsToRows()
    Component.onCompleted: matchSlotsToRows()
}
