package policy

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
)

func TestReadAlpha(t *testing.T) {
	m := tiger95(t)
	vs, err := ReadAlpha(strings.NewReader("1\n-81.5 28.25 \n\n0\n 1e1\t-2\n"), "a.alpha", m)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Action != 1 || vs[0].V[0] != -81.5 || vs[1].V[0] != 10 || vs[1].V[1] != -2 {
		t.Fatalf("read %v", vs)
	}
	v, i := Value(vs, []float64{0.5, 0.5})
	if v != 4 || i != 1 {
		t.Errorf("Value = %v, %d; want 4, 1 (hand computation)", v, i)
	}
}

func TestReadAlphaErrors(t *testing.T) {
	m := tiger95(t)
	cases := []struct{ name, src, want string }{
		{"empty", "", "policy: e.alpha: no alpha vectors"},
		{"bad action", "x\n1 2\n", `policy: e.alpha:1: vector 0, action: expected an action index (0, 1, …), got "x"`},
		{"two on action line", "0 1\n1 2\n", "policy: e.alpha:1: vector 0, action: expected a line holding one action index, got 2 entries"},
		{"action out of range", "0\n1 2\n\n5\n1 2\n", "policy: e.alpha:4: vector 1, action: action 5 out of range: the model has 3 actions (0 … 2)"},
		{"wrong |S|", "0\n1 2 3\n", "policy: e.alpha:2: vector 0, values: 3 values, want one per state of the model (2)"},
		{"bad number", "0\n1 zz\n", `policy: e.alpha:2: vector 0, values, state tiger-right: expected a finite number, got "zz"`},
		{"nan", "0\nNaN 1\n", `policy: e.alpha:2: vector 0, values, state tiger-left: expected a finite number, got "NaN"`},
		{"truncated", "0\n1 2\n\n2\n", "policy: e.alpha:4: vector 1: the file ends after the action line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadAlpha(strings.NewReader(tc.src), "e.alpha", m)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n %s\nwant prefix\n %s", err, tc.want)
			}
		})
	}
	if _, err := ReadAlpha(strings.NewReader("0\n1 2\n1\n1 2 3\n"), "e.alpha", nil); err == nil {
		t.Error("vectors of different lengths accepted without a model")
	}
}

// TestAlphaRoundTrip: values of magnitude ≥ 1 read back bit for bit (25
// decimals resolve far below their spacing of ≥ 2.2e-16), smaller ones
// within the 5e-26 of the last printed decimal.
func TestAlphaRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vs []Alpha
	for i := 0; i < 200; i++ {
		v := []float64{(rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-10)), float64(rng.IntN(100)), -0.0}
		vs = append(vs, Alpha{Action: rng.IntN(3), V: v})
	}
	var buf bytes.Buffer
	if err := WriteAlpha(&buf, vs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAlpha(bytes.NewReader(buf.Bytes()), "r.alpha", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range vs {
		for s, v := range vs[i].V {
			exact := math.Abs(v) >= 1 || math.Abs(v) == 0 // integer part present: all bits in 25 decimals
			if exact && got[i].V[s] != v || !(math.Abs(got[i].V[s]-v) <= 1e-25) {
				t.Fatalf("vector %d value %d: wrote %v, read %v", i, s, v, got[i].V[s])
			}
		}
		if got[i].Action != vs[i].Action {
			t.Fatalf("vector %d action %d, want %d", i, got[i].Action, vs[i].Action)
		}
	}
	if err := WriteAlpha(&buf, []Alpha{{0, []float64{math.Inf(1)}}}); err == nil {
		t.Error("WriteAlpha accepted +Inf")
	}
	if err := WriteAlpha(&buf, []Alpha{{0, []float64{1}}, {0, []float64{1, 2}}}); err == nil {
		t.Error("WriteAlpha accepted vectors of different lengths")
	}
}

func FuzzReadAlpha(f *testing.F) {
	for _, s := range []string{"1\n-81.5972000443493357124680188 28.4027999556506678402456600 \n\n0\n0.69 25.0 \n\n", "0\n1 2\n", "0\n1e400 2\n", "2\n\n\n1 2\n", "0\n"} {
		f.Add(s)
	}
	// Our own file in pomdp-solve's layout, and pomdp-solve's own when it
	// is beside the repository.
	seeds := []string{filepath.Join("testdata", "counter.alpha")}
	seeds = append(seeds, shared.Seeds(f, "testdata/counter.alpha", "policies", "tiger.95.alpha")...)
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	m := tiger95(f)
	f.Fuzz(func(t *testing.T, src string) {
		vs, err := ReadAlpha(strings.NewReader(src), "fuzz.alpha", m)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want *ParseError", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteAlpha(&out, vs); err != nil {
			t.Fatalf("accepted vectors do not write: %v", err)
		}
		again, err := ReadAlpha(bytes.NewReader(out.Bytes()), "again.alpha", m)
		if err != nil || len(again) != len(vs) {
			t.Fatalf("written vectors do not read back: %v\n%s", err, out.Bytes())
		}
		for i := range vs {
			for s, v := range vs[i].V {
				if !(math.Abs(again[i].V[s]-v) <= 1e-25*math.Max(1, math.Abs(v))) {
					t.Fatalf("vector %d value %d: %v read back as %v", i, s, v, again[i].V[s])
				}
			}
		}
	})
}
