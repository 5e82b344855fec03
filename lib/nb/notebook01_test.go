package nb

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/repro"
)

// TestVariant: the identity permutation reproduces the model, the swap
// exchanges the states' rows, and a non-permutation is an error.
func TestVariant(t *testing.T) {
	m := mustBench(t, "tiger").Model
	tests := []struct {
		perm    []int
		wantErr bool
	}{{[]int{0, 1}, false}, {[]int{1, 0}, false}, {[]int{0, 0}, true}, {[]int{0}, true}, {[]int{0, 2}, true}}
	for _, tc := range tests {
		v, err := Variant(m, "v", tc.perm, nil)
		if (err != nil) != tc.wantErr {
			t.Fatalf("perm %v: error %v, want error %v", tc.perm, err, tc.wantErr)
		}
		if err != nil {
			continue
		}
		for i, s := range tc.perm {
			if v.States[i] != m.States[s] || v.B0[i] != m.B0[s] || v.R[i][0] != m.R[s][0] {
				t.Errorf("perm %v: state %d is %s, want %s", tc.perm, i, v.States[i], m.States[s])
			}
			for a := range m.Actions {
				for j, s2 := range tc.perm {
					if v.TransitionProb(i, a, j) != m.TransitionProb(s, a, s2) {
						t.Errorf("perm %v: T(%d, %d, %d) differs", tc.perm, i, a, j)
					}
				}
			}
		}
	}
	e, err := Variant(m, "edited", []int{0, 1}, func(d *pomdp.Dense) { d.R[0][0] = 7 })
	if err != nil || e.R[0][0] != 7 || m.R[0][0] == 7 {
		t.Errorf("edit: %v, R = %v (original %v)", err, e.R, m.R)
	}
}

func TestTigerVariants(t *testing.T) {
	names, models, err := TigerVariants()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 6 || len(models) != 6 {
		t.Fatalf("%d names, %d models", len(names), len(models))
	}
	// The relabelled model is Tiger with its two states swapped.
	if models[5].States[0] != models[0].States[1] || models[5].R[0][0] != -2 || models[3].B0[0] != 0.3 {
		t.Errorf("relabelled %v R %v; b0=0.3 model b0 %v", models[5].States, models[5].R, models[3].B0)
	}
}

// TestTigerLipschitz: six families; a zero distance with different rewards
// makes L_R infinite, so LR is finite exactly when there is no violation.
func TestTigerLipschitz(t *testing.T) {
	runs, err := TigerLipschitz(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, r := range runs {
		if r.T != 2+i/3 || r.Family == "" || math.IsInf(r.LR, 1) != (r.Violations > 0) {
			t.Errorf("run %d: %+v", i, r)
		}
	}
}

// TestThetaSweep: a controller that never listens (θ = 0) learns nothing,
// so the laws after L and R are equal; the belief difference grows with θ.
func TestThetaSweep(t *testing.T) {
	for _, split := range []float64{0.5, 1} {
		w1, dbel, err := ThetaSweep([]float64{0, 0.5, 1}, split)
		if err != nil {
			t.Fatal(err)
		}
		if len(w1) != 3 || math.Abs(w1[0]) > 1e-12 || w1[2] <= 0 || math.Abs(dbel[2]) < math.Abs(dbel[0]) {
			t.Errorf("split %g: W1 %v, Δb %v", split, w1, dbel)
		}
	}
}

func TestKeepRows(t *testing.T) {
	tab := &repro.Table{Name: "t", Rows: [][]string{{"a_1", "x"}, {"b_1", "y"}, {"a_2", "z"}},
		Status: []repro.Status{repro.Agree, repro.Differs, repro.Agree}, Note: []string{"n1", "n2", "n3"},
		Printed: [][]string{{"p1"}, {"p2"}, {"p3"}}}
	tests := []struct {
		prefixes []string
		want     []string
	}{{[]string{"a_"}, []string{"a_1", "a_2"}}, {[]string{"b_", "a_2"}, []string{"b_1", "a_2"}}, {[]string{"c"}, nil}}
	for _, tc := range tests {
		got, err := KeepRows(tab, tc.prefixes...)
		if err != nil {
			t.Fatal(err)
		}
		note := map[string]string{"a_1": "n1", "b_1": "n2", "a_2": "n3"}
		var ids []string
		for i, r := range got.Rows {
			ids = append(ids, r[0])
			if got.Note[i] != note[r[0]] || got.Printed[i][0] != "p"+note[r[0]][1:] || len(got.Status) != len(got.Rows) {
				t.Errorf("%v: row %v with note %q, printed %v", tc.prefixes, r, got.Note[i], got.Printed[i])
			}
		}
		if fmt.Sprint(ids) != fmt.Sprint(tc.want) && !(len(ids) == 0 && len(tc.want) == 0) {
			t.Errorf("%v: rows %v, want %v", tc.prefixes, ids, tc.want)
		}
	}
	if _, err := KeepRows(&repro.Table{Name: "raw", Rows: [][]string{{"a"}}}); err == nil {
		t.Error("uncompared table: no error")
	}
}
