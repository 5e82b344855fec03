package nb

import (
	"bytes"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// captureText redirects Output to a buffer for the duration of the test, with
// the notebook hooks reporting that no notebook is attached.
func captureText(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	oldOut, oldNB := Output, inNotebook
	Output, inNotebook = &buf, func() bool { return false }
	t.Cleanup(func() { Output, inNotebook = oldOut, oldNB })
	return &buf
}

// fakeNotebook makes the package believe it runs in a GoNB notebook and
// returns the display messages it sends; Output goes to a buffer, which must
// stay empty except for Check lines.
func fakeNotebook(t *testing.T) (sent *[]*protocol.DisplayData, out *bytes.Buffer) {
	t.Helper()
	var msgs []*protocol.DisplayData
	var buf bytes.Buffer
	oldOut, oldNB, oldSend, oldSync, oldID := Output, inNotebook, sendData, syncFront, uniqueID
	Output = &buf
	inNotebook = func() bool { return true }
	sendData = func(d *protocol.DisplayData) { msgs = append(msgs, d) }
	syncFront = func() {}
	n := 0
	uniqueID = func() string { n++; return string(rune('a' + n - 1)) }
	t.Cleanup(func() {
		Output, inNotebook, sendData, syncFront, uniqueID = oldOut, oldNB, oldSend, oldSync, oldID
	})
	return &msgs, &buf
}
