package policy

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// samplePair loads tiger.95.POMDP with pomdp-solve's policy graph and
// alpha vectors for it (third-party test inputs beside the repository), or
// skips t naming twin, the test that checks the same on our own files.
func samplePair(t *testing.T, twin string) (*pomdp.Model, []byte, []byte) {
	t.Helper()
	m, err := modelfile.Load(shared.Path(t, twin, "pomdp", "tiger.95.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	pg, err := os.ReadFile(shared.Path(t, twin, "policies", "tiger.95.pg"))
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := os.ReadFile(shared.Path(t, twin, "policies", "tiger.95.alpha"))
	if err != nil {
		t.Fatal(err)
	}
	return m, pg, alpha
}

// TestSampleRoundTrip: pomdp-solve's files read and write back bit for bit.
// Twin: TestCounterTwinFiles.
func TestSampleRoundTrip(t *testing.T) {
	m, pg, alpha := samplePair(t, "TestCounterTwinFiles")
	c, err := ReadPG(bytes.NewReader(pg), "tiger.95.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes != 9 {
		t.Errorf("%d nodes, want 9 (the README beside the sample)", c.Nodes)
	}
	var buf bytes.Buffer
	if err := WritePG(&buf, c); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), pg) {
		t.Errorf("WritePG differs from the sample:\n%s\nwant\n%s", buf.Bytes(), pg)
	}
	vs, err := ReadAlpha(bytes.NewReader(alpha), "tiger.95.alpha", m)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := WriteAlpha(&buf, vs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), alpha) {
		t.Errorf("WriteAlpha differs from the sample:\n%s\nwant\n%s", buf.Bytes(), alpha)
	}
}

// TestSampleValue: the exact value of pomdp-solve's graph at b0 matches
// max_α α·b0 of its alpha vectors within 1e-6 relative (the solver's
// precision; the README beside the sample reports 3e-11), from the same
// node, and every node's exact vector matches the solver's vector. Twin:
// TestCounterTwinValue.
func TestSampleValue(t *testing.T) {
	m, pg, alpha := samplePair(t, "TestCounterTwinValue")
	c, err := ReadPG(bytes.NewReader(pg), "tiger.95.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := ReadAlpha(bytes.NewReader(alpha), "tiger.95.alpha", m)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(m, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, arg := Value(vs, m.B0)
	if !(math.Abs(ev.Value-want) <= 1e-6*math.Abs(want)) {
		t.Errorf("value %.12g, alpha vectors give %.12g", ev.Value, want)
	}
	if ev.StartNode != arg {
		t.Errorf("start node %d, the alpha vectors' maximiser is %d", ev.StartNode, arg)
	}
	for n, a := range vs {
		if a.Action != c.Action(0, n) {
			t.Errorf("vector %d has action %d, node %d action %d", n, a.Action, n, c.Action(0, n))
		}
		for s, v := range a.V {
			if !(math.Abs(ev.V[n][s]-v) <= 1e-6*math.Max(1, math.Abs(v))) {
				t.Errorf("V[%d][%d] = %.12g, alpha vector %.12g", n, s, ev.V[n][s], v)
			}
		}
	}
}
