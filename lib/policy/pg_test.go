package policy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// tiger95 is the classic Tiger (pomdp-solve's tiger.95.POMDP) built in.
func tiger95(t testing.TB) *pomdp.Model {
	t.Helper()
	b, err := bench.Lookup("tiger95")
	if err != nil {
		t.Fatal(err)
	}
	return b.Model
}

// counterPG is the listen-until-two-ahead controller of tiger95 (actions
// listen, open-left, open-right; observations tiger-left, tiger-right):
// two more tiger-left than tiger-right opens the right door, and back to 0.
const counterPG = `0 0  1 2 
1 0  3 0 
2 0  0 4 
3 2  0 0 
4 1  0 0 
`

func TestReadPG(t *testing.T) {
	m := tiger95(t)
	c, err := ReadPG(strings.NewReader(counterPG), "counter.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes != 5 || c.NumActions != 3 || c.NumObs != 2 || c.Clock() || !c.Deterministic() {
		t.Fatalf("read %v", c)
	}
	if c.Action(0, 3) != 2 || c.NextNode(0, 1, 0) != 3 || c.NextNode(0, 2, 1) != 4 {
		t.Errorf("tables %v", c)
	}
	// Node order in the file does not matter; blank and comment lines are skipped.
	c2, err := ReadPG(strings.NewReader("# a comment\n\n2 0  0 4\n0 0 1 2\n1 0 3 0\n4 1 0 0\n3 2 0 0\n"), "shuffled.pg", m)
	if err != nil {
		t.Fatal(err)
	}
	if c2.String() != c.String() {
		t.Errorf("shuffled file read as %v, want %v", c2, c)
	}
	// Without a model the sizes come from the file.
	c3, err := ReadPG(strings.NewReader("0 4  0 - 1\n1 0  1 1 1\n"), "free.pg", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c3.NumActions != 5 || c3.NumObs != 3 || c3.Next[0][0][1] != None {
		t.Errorf("read %v (actions %d, observations %d)", c3, c3.NumActions, c3.NumObs)
	}
}

func TestWritePGRoundTrip(t *testing.T) {
	src := "0 1  - 1 \n1 0  0 - \n"
	c, err := ReadPG(strings.NewReader(src), "dash.pg", tiger95(t))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePG(&buf, c); err != nil {
		t.Fatal(err)
	}
	if buf.String() != src {
		t.Errorf("wrote %q, want %q", buf.String(), src)
	}
	for _, bad := range []*fsc.FSC{
		fsc.Mixed(2, []float64{0.5, 0.5}),
		fsc.OpenLoop(3, 2, []int{0, 1}),
		{Nodes: 1, NumActions: 3, NumObs: 2, Act: [][]int{{3}}, Next: [][][]int{{{0, 0}}}},
		{Nodes: 1, NumActions: 3, NumObs: 2, Act: [][]int{{0}}, Next: [][][]int{{{0, 1}}}},
	} {
		if err := WritePG(&buf, bad); err == nil {
			t.Errorf("WritePG accepted %v", bad)
		}
	}
}

// TestReadPGErrors: every bad file is a *ParseError naming the file, the
// line and the entry.
func TestReadPGErrors(t *testing.T) {
	m := tiger95(t)
	cases := []struct {
		name, src, want string
	}{
		{"empty", "\n\n", "policy: e.pg: no nodes"},
		{"bad id", "x 0 0 0\n", "policy: e.pg:1: node id: expected a node number"},
		{"negative id", "-1 0 0 0\n", "policy: e.pg:1: node id: expected a node number"},
		{"no action", "0\n", "policy: e.pg:1: node 0: expected an action index"},
		{"bad action", "0 a 0 0\n", `policy: e.pg:1: node 0, action: expected an action index (0, 1, …), got "a"`},
		{"action out of range", "0 0 0 0\n1 3 0 0\n", "policy: e.pg:2: node 1, action: action 3 out of range: the model has 3 actions (0 … 2)"},
		{"too few observations", "0 0 0\n", "policy: e.pg:1: node 0: 1 next nodes, want one per observation of the model (2)"},
		{"too many observations", "0 0 0 0 0\n", "policy: e.pg:1: node 0: 3 next nodes"},
		{"bad next", "0 0 0 x\n", `policy: e.pg:1: node 0, next node for observation tiger-right: expected a node number or -, got "x"`},
		{"dangling", "0 0 0 1\n1 0 0 7\n", "policy: e.pg:2: node 1, next node for observation tiger-right: dangling node 7: the graph has nodes 0 … 1"},
		{"duplicate id", "0 0 0 0\n\n0 0 0 0\n", "policy: e.pg:3: node id: duplicate node id 0 (first on line 1)"},
		{"missing id", "0 0 0 0\n2 0 0 0\n", "policy: e.pg:2: node id: node id 2 out of range: the file has 2 nodes, so ids run 0 … 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPG(strings.NewReader(tc.src), "e.pg", m)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n %s\nwant prefix\n %s", err, tc.want)
			}
		})
	}
	if _, err := ReadPG(strings.NewReader("0 0\n"), "e.pg", nil); err == nil {
		t.Error("a line without next nodes accepted without a model")
	}
}

func TestComplete(t *testing.T) {
	c, err := ReadPG(strings.NewReader("0 1  - 1\n1 0  2 -\n2 2  0 1\n"), "c.pg", tiger95(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Complete(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	// Node 1 → 0, node 0 → 1, node 2 stays; "-" becomes a self-loop.
	want := "stationary m=3 α=[0 1 2] β=[[2 0] [1 0] [1 0]]"
	if p.String() != want {
		t.Errorf("Complete = %v, want %s", p, want)
	}
}

func FuzzReadPG(f *testing.F) {
	for _, s := range []string{counterPG, "0 1  - 1 \n1 0  0 - \n", "# c\n\n1 0 0 1\n0 2 1 0\n", "0 0 0\n", "0 0 0 0 0\n", "3 0 0 0\n", "0 9 0 0\n"} {
		f.Add(s)
	}
	// Our own file in pomdp-solve's layout, and pomdp-solve's own when it
	// is beside the repository.
	seeds := []string{filepath.Join("testdata", "counter.pg")}
	seeds = append(seeds, shared.Seeds(f, "testdata/counter.pg", "policies", "tiger.95.pg")...)
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	m := tiger95(f)
	f.Fuzz(func(t *testing.T, src string) {
		for _, model := range []*pomdp.Model{m, nil} {
			c, err := ReadPG(strings.NewReader(src), "fuzz.pg", model)
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is a %T, want *ParseError", err, err)
				}
				continue
			}
			var out bytes.Buffer
			if err := WritePG(&out, c); err != nil {
				t.Fatalf("accepted graph does not write: %v", err)
			}
			c2, err := ReadPG(bytes.NewReader(out.Bytes()), "again.pg", model)
			if err != nil {
				t.Fatalf("written graph does not read back: %v\n%s", err, out.Bytes())
			}
			var out2 bytes.Buffer
			if err := WritePG(&out2, c2); err != nil || !bytes.Equal(out.Bytes(), out2.Bytes()) {
				t.Fatalf("round trip changed the graph:\n%s\n%s", out.Bytes(), out2.Bytes())
			}
			if _, err := Complete(c, 0); err != nil {
				t.Fatal(err)
			}
		}
	})
}
