// A list of rows that a C++ property replaces whole and often: a frame
// report's passes (every frame), a memory report's buffers, a comparison's
// differences at each pose. Given a new array as its model, Qt 6.4's ListView
// keeps about 150 bytes it never frees and makes every delegate again
// (measured: 10,000 two-row arrays assigned, +1.6 MB of heap in use and
// 20,000 delegates made); a character left playing grew the viewer with
// every frame. Here the model is the number of rows, which changes only when
// that number does, so the delegates stay and their bindings update.
// Delegates read their row as `rows[index]`, which is undefined for a moment
// while the rows shrink: read its fields with a fallback.
import QtQuick
import QtQuick.Controls

ListView {
    property var rows: []
    clip: true
    model: rows.length
    ScrollBar.vertical: ScrollBar {}
}
