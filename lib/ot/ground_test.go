package ot

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestGroundRules checks that NewGround and NewMetric name the rule a
// matrix breaks and the entry that breaks it.
func TestGroundRules(t *testing.T) {
	cases := []struct {
		name   string
		d      [][]float64
		metric bool // NewMetric instead of NewGround
		kind   GroundFault
		i, j   int
		k      int // triangle: the intermediate point
	}{
		{"ragged", [][]float64{{0, 1}, {1}}, false, RowLength, 1, -1, -1},
		{"NaN", [][]float64{{0, math.NaN()}, {1, 0}}, false, NotFinite, 0, 1, -1},
		{"negative", [][]float64{{0, 1}, {-1, 0}}, false, Negative, 1, 0, -1},
		{"diagonal", [][]float64{{0, 1}, {1, 0.5}}, false, Diagonal, 1, 1, -1},
		{"asymmetric", [][]float64{{0, 1}, {2, 0}}, false, Asymmetric, 0, 1, -1},
		// d(0,2) = 3 > d(0,1) + d(1,2) = 2.
		{"triangle", [][]float64{{0, 1, 3}, {1, 0, 1}, {3, 1, 0}}, false, Triangle, 0, 1, 2},
		{"pseudometric", [][]float64{{0, 0, 1}, {0, 0, 1}, {1, 1, 0}}, true, NotSeparated, 0, 1, -1},
	}
	for _, c := range cases {
		var err error
		if c.metric {
			_, err = NewMetric(c.d)
		} else {
			_, err = NewGround(c.d)
		}
		var ge *GroundError
		if !errors.As(err, &ge) {
			t.Errorf("%s: %v, want a *GroundError", c.name, err)
			continue
		}
		if ge.Kind != c.kind || ge.I != c.i || ge.J != c.j || ge.K != c.k {
			t.Errorf("%s: %v (kind %d, %d %d %d), want kind %d at %d %d %d", c.name, err, ge.Kind, ge.I, ge.J, ge.K, c.kind, c.i, c.j, c.k)
		}
		if ge.Kind.Rule() == "" || strings.HasPrefix(ge.Kind.Rule(), "GroundFault(") {
			t.Errorf("%s: no rule for kind %d", c.name, ge.Kind)
		}
	}
	// A pseudometric is a ground metric, not a metric.
	pseudo := [][]float64{{0, 0, 1}, {0, 0, 1}, {1, 1, 0}}
	if _, err := NewGround(pseudo); err != nil {
		t.Errorf("NewGround refused a pseudometric: %v", err)
	}
	for _, d := range []Ground{Discrete(3), Ordered(5), {{0}}} {
		if _, err := NewMetric(d); err != nil {
			t.Errorf("NewMetric(%v): %v", d, err)
		}
	}
}

// TestFingerprint checks the fingerprint against a hash computed here from
// its documented definition, and that one ulp changes it.
func TestFingerprint(t *testing.T) {
	g := Ground{{0, 0.5}, {0.5, 0}}
	h := sha256.New()
	for _, u := range []uint64{2, 0, math.Float64bits(0.5), math.Float64bits(0.5), 0} {
		h.Write(binary.LittleEndian.AppendUint64(nil, u))
	}
	if want := hex.EncodeToString(h.Sum(nil))[:12]; g.Fingerprint() != want {
		t.Errorf("fingerprint %s, want %s", g.Fingerprint(), want)
	}
	g2 := Ground{{0, math.Nextafter(0.5, 1)}, {0.5, 0}}
	if g.Fingerprint() == g2.Fingerprint() {
		t.Error("one ulp does not change the fingerprint")
	}
}

// TestDescribed checks the printed description: the discrete metric is
// recognised whatever its name, any other shows its name (or its size)
// and fingerprint, then the source.
func TestDescribed(t *testing.T) {
	o := Ordered(3)
	cases := []struct {
		d    Described
		want string
	}{
		{DescribeDiscrete(2, "default"), "discrete 0/1 (default)"},
		{Described{Ground: Discrete(3), Name: "mine"}, "discrete 0/1"},
		{Described{Ground: o, Name: "ordered", Source: "file g.csv"}, "ordered [sha256 " + o.Fingerprint() + "] (file g.csv)"},
		{Described{Ground: o}, "unnamed 3×3 matrix [sha256 " + o.Fingerprint() + "]"},
	}
	for _, c := range cases {
		if got := c.d.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
	if Ordered(2).IsDiscrete() != true || Ordered(3).IsDiscrete() || !Discrete(1).IsDiscrete() {
		t.Error("IsDiscrete")
	}
}
