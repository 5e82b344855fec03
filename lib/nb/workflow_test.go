package nb

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/planq"
)

func TestPlanValue(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{math.NaN(), "—"},
		{1e-8, "0.000000"},
		{-1e-8, "0.000000"}, // not "-0.000000"
		{1.5, "1.500000"},
		{-0.0306251, "-0.030625"},
	}
	for _, tt := range tests {
		if got := PlanValue(tt.x); got != tt.want {
			t.Errorf("PlanValue(%g) = %q, want %q", tt.x, got, tt.want)
		}
	}
}

func TestObservationConfig(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ObservationConfig(b.Model, b.Ground, 2, 4, []float64{0, 0.5}, planq.BestFSC{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.M != 2 || cfg.T != 4 || len(cfg.Eps) != 2 || cfg.Model == b.Model || len(cfg.ObsValues) != 2 {
		t.Errorf("config %+v", cfg)
	}
	// v(o) = o/(|O| − 1) for Tiger's two observations.
	if cfg.ObsValues[0] != 0 || cfg.ObsValues[1] != 1 || !strings.HasSuffix(cfg.Reward, "= [0 1]") {
		t.Errorf("observation values %v, reward %q", cfg.ObsValues, cfg.Reward)
	}
}

func TestGuaranteeText(t *testing.T) {
	res := &planq.Result{Rows: []planq.Row{
		{Eps: 0.5, Regret: 0.125, Verdict: planq.WithinBound},
		{Eps: 0.25, Regret: math.NaN(), Verdict: planq.NotJudged},
	}}
	got := GuaranteeText(res)
	for _, want := range []string{"ε = 0.5: measured regret 0.125000 → within bound\n    ", "ε = 0.25: measured regret — → not judged (no baseline)\n    "} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 4 {
		t.Errorf("%d lines, want 2 per ε:\n%s", n, got)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	bad := errors.New("disk on fire")
	tests := []struct {
		name    string
		path    string
		write   func(io.Writer) error
		size    int64
		wantErr string
	}{
		{"ok", filepath.Join(dir, "a.txt"), func(w io.Writer) error { _, err := io.WriteString(w, "héllo"); return err }, int64(len("héllo")), ""},
		{"writer fails", filepath.Join(dir, "b.txt"), func(io.Writer) error { return bad }, 0, "b.txt: disk on fire"},
		{"no directory", filepath.Join(dir, "none", "c.txt"), func(io.Writer) error { return nil }, 0, "c.txt"},
	}
	for _, tt := range tests {
		n, err := WriteFile(tt.path, tt.write)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want one naming %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || n != tt.size {
			t.Errorf("%s: size %d, err %v; want %d", tt.name, n, err, tt.size)
		}
	}
}

func TestFindSARSOP(t *testing.T) {
	root := t.TempDir()
	t.Setenv("PATH", t.TempDir()) // no pomdpsol on PATH
	t.Setenv("POMDPSOL", "")
	if where, cmd := FindSARSOP(root); where != "" || cmd != "" {
		t.Errorf("nothing installed: found %q, %q", where, cmd)
	}
	bin := filepath.Join(root, SARSOPPath)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	where, cmd := FindSARSOP(root)
	if where != SARSOPPath || cmd != `"$POMDPSOL"` || os.Getenv("POMDPSOL") != bin {
		t.Errorf("built under root: %q, %q, POMDPSOL=%q", where, cmd, os.Getenv("POMDPSOL"))
	}
	if where, _ := FindSARSOP(t.TempDir()); where != "$POMDPSOL" {
		t.Errorf("POMDPSOL set: found at %q", where)
	}
}

func TestReadSARSOPPolicy(t *testing.T) {
	b, err := bench.Lookup("tiger") // 2 states, 3 actions
	if err != nil {
		t.Fatal(err)
	}
	const head = `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n<Policy><AlphaVector vectorLength=\"%s\" numObsValue=\"1\" numVectors=\"2\">"
	doc := func(length, body string) string {
		return strings.Replace(head, "%s", length, 1) + body + "</AlphaVector></Policy>"
	}
	tests := []struct {
		name    string
		content string
		actions []int
		values  [][]float64
		wantErr string
	}{
		{"dense and sparse", doc("2", `<Vector action="0" obsValue="0">1.5 -2 </Vector><SparseVector action="2" obsValue="0"><Entry>1 3.25</Entry></SparseVector>`),
			[]int{0, 2}, [][]float64{{1.5, -2}, {0, 3.25}}, ""},
		{"wrong length", doc("3", ``), nil, nil, "vectorLength 3, the model has 2 states"},
		{"short vector", doc("2", `<Vector action="0">1</Vector>`), nil, nil, "vector 0: 1 values"},
		{"bad action", doc("2", `<Vector action="3">1 2</Vector>`), nil, nil, "action 3"},
		{"bad number", doc("2", `<Vector action="0">1 x</Vector>`), nil, nil, "vector 0"},
		{"bad entry", doc("2", `<SparseVector action="0"><Entry>5 1</Entry></SparseVector>`), nil, nil, `entry "5 1"`},
		{"not XML", "garbage", nil, nil, "p.policy"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "p.policy")
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		sp, err := ReadSARSOPPolicy(path, b.Model)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want one with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(sp.Alphas) != len(tt.actions) {
			t.Fatalf("%s: %d vectors", tt.name, len(sp.Alphas))
		}
		for k, a := range sp.Alphas {
			if a.Action != tt.actions[k] || len(a.V) != 2 || a.V[0] != tt.values[k][0] || a.V[1] != tt.values[k][1] {
				t.Errorf("%s: vector %d = %+v, want action %d values %v", tt.name, k, a, tt.actions[k], tt.values[k])
			}
		}
	}
	if _, err := ReadSARSOPPolicy(filepath.Join(t.TempDir(), "missing.policy"), b.Model); err == nil {
		t.Error("missing file: no error")
	}
}
