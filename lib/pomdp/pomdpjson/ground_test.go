package pomdpjson

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

// quadrants are GridWorld's observations and quadMetric the geometric
// metric between them, typed from its definition (|Δx| + |Δy|)/2 with NW
// (0,0), NE (0,1), SW (1,0), SE (1,1).
var (
	quadrants  = []string{"NW", "NE", "SW", "SE"}
	quadMetric = ot.Ground{{0, 0.5, 0.5, 1}, {0.5, 0, 1, 0.5}, {0.5, 1, 0, 0.5}, {1, 0.5, 0.5, 0}}
)

// groundModel is a one-state model on the GridWorld observations.
func groundModel(g *pomdp.Ground) *pomdp.Model {
	m := pomdp.Must(pomdp.New(pomdp.Dense{Name: "quads", States: []string{"s"}, Actions: []string{"x"}, Observations: quadrants,
		T: [][][]float64{{{1}}}, Z: [][][]float64{{{0.25, 0.25, 0.25, 0.25}}}}))
	m.Ground = g
	return m
}

// TestModelGround checks the JSON model's "ground": written and read back
// bit for bit, refused with the line of the whole document when it is
// not a metric, refused by Validate, and kept out of the .pomdp format
// (a comment only).
func TestModelGround(t *testing.T) {
	for _, g := range []*pomdp.Ground{{Name: "quadrant-manhattan", D: quadMetric}, {D: quadMetric}, {Name: "discrete", D: ot.Discrete(4)}, nil} {
		m := groundModel(g)
		back := roundTripJSON(t, m)
		if err := pomdptest.SameGround(back.Ground, g); err != nil {
			t.Errorf("%v", err)
		}
	}
	src := `{
  "states": ["s"],
  "actions": ["x"],
  "observations": ["a", "b"],
  "ground": {"matrix": [[0, 1],
                        [2, 0]]},
  "transitions": [{"action": "x", "from": "s", "to": "s", "p": 1}],
  "observation_model": [{"action": "x", "to": "s", "obs": "a", "p": 1}]
}`
	_, err := Read(strings.NewReader(src), "m.json")
	if want := "m.json:5:29: d(a, b) (ground.matrix[0][1]): 1, but d(b, a) = 2 (line 6)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("asymmetric ground: %v, want %s", err, want)
	}
	bad := strings.Replace(src, "[[0, 1],\n                        [2, 0]]", "[[0, 1]]", 1)
	if _, err := Read(strings.NewReader(bad), "m.json"); err == nil || !strings.Contains(err.Error(), "m.json:5:24: ground.matrix: has 1 rows, want 2") {
		t.Errorf("one row: %v", err)
	}
	if err := groundModel(&pomdp.Ground{D: ot.Discrete(3)}).Validate(); err == nil || !strings.Contains(err.Error(), "3 points for 4 observations") {
		t.Errorf("Validate, wrong size: %v", err)
	}
	if err := groundModel(&pomdp.Ground{D: ot.Ground{{0, 1, 1, 3}, {1, 0, 1, 1}, {1, 1, 0, 1}, {3, 1, 1, 0}}}).Validate(); err == nil || !strings.Contains(err.Error(), "d(NW, SE): the triangle inequality") {
		t.Errorf("Validate, triangle: %v", err)
	}

	var buf bytes.Buffer
	if err := cassandra.Write(&buf, groundModel(&pomdp.Ground{Name: "quadrant-manhattan", D: quadMetric})); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"# ground metric quadrant-manhattan [sha256 " + quadMetric.Fingerprint() + "]", "reads with the discrete metric", "#   SE: 1 0.5 0.5 0"} {
		if !strings.Contains(text, want) {
			t.Errorf(".pomdp export lacks %q:\n%s", want, text)
		}
	}
	back, err := cassandra.Read(strings.NewReader(text), "q.pomdp")
	if err != nil || back.Ground != nil {
		t.Errorf("read back %v, ground %v; want no ground (the format has none)", err, back.Ground)
	}
	buf.Reset()
	if err := cassandra.Write(&buf, groundModel(&pomdp.Ground{Name: "discrete", D: ot.Discrete(4)})); err != nil || strings.Contains(buf.String(), "ground") {
		t.Errorf("a discrete ground metric needs no comment: %v\n%s", err, buf.String())
	}
}
