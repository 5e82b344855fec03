package nb

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
)

func TestExplorer(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewExplorer(context.Background(), b.Model, b.Ground, 3, []int{1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := len(e.Eps) - 1
	// Counts fall as ε grows, m ≤ 2 lies on or above m = 1, and past the
	// largest distance every depth is one class.
	for j := range e.Ms {
		for i := 1; i < len(e.Eps); i++ {
			if e.Counts[j][i] > e.Counts[j][i-1] {
				t.Errorf("m ≤ %d: counts rise at ε = %g", e.Ms[j], e.Eps[i])
			}
		}
		if e.Counts[j][last] != e.T+1 {
			t.Errorf("m ≤ %d: %d classes at the end of the grid, want %d", e.Ms[j], e.Counts[j][last], e.T+1)
		}
	}
	for i := range e.Eps {
		if e.Counts[1][i] < e.Counts[0][i] {
			t.Errorf("ε = %g: m ≤ 2 below m = 1", e.Eps[i])
		}
	}
	// The views at both ends differ in what they show.
	v0, err := e.ViewHTML(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := e.ViewHTML(1, last)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{v0, v1} {
		if !strings.Contains(v, `<g class="nodes">`) || strings.Count(v, "<svg") != 2 {
			t.Errorf("a view lacks the curve or the diagram:\n%.300s", v)
		}
	}
	// At ε = 0 the view shows the exact classes of m ≤ 2.
	exact := e.res[1].Classes.Total()
	if want := fmt.Sprintf(`data-m="2" data-eps="0" data-classes="%d"`, exact); !strings.Contains(v0, want) || e.Counts[1][0] != exact {
		t.Errorf("view at ε = 0 does not show %s:\n%.200s", want, v0)
	}
	if !strings.Contains(v1, `data-classes="4"`) || v0 == v1 {
		t.Errorf("view at the end of the grid: %.200s", v1)
	}
	// Outside a notebook: plain text, the counts and the partition.
	var out bytes.Buffer
	old := Output
	Output = &out
	defer func() { Output = old }()
	if err := e.Show(ExplorerOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "classes vs ε") || !strings.Contains(s, "partition at ε = 0") || strings.Contains(s, "<") {
		t.Errorf("plain text:\n%s", s)
	}
}

// TestExplorerGround: every view names the ground metric, by its name when
// it is a built-in's.
func TestExplorerGround(t *testing.T) {
	b, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		g    ot.Ground
		want string
	}{
		{b.Ground, "ground metric quadrant-manhattan [sha256 " + b.Ground.Fingerprint() + "]"},
		{nil, "ground metric discrete 0/1"},
	} {
		e, err := NewExplorer(context.Background(), b.Model, c.g, 2, []int{1}, []float64{0, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.ViewHTML(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(v, c.want) || !strings.Contains(e.Text(0), c.want) {
			t.Errorf("the views do not say %q:\n%.400s\n%s", c.want, v, e.Text(0))
		}
	}
}
