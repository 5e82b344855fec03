package planq

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// tigerObs returns Tiger with the observation reward.
func tigerObs(t *testing.T) (Config, *bench.Benchmark) {
	t.Helper()
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m, err := value.WithObsReward(b.Model)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Model: m, Ground: b.Ground, Reward: "observation", ObsValues: value.ObsValues(m.NumObservations()),
		Kind: fsc.KindStationary, M: 2, T: 4, Eps: []float64{0, 0.3, 0.5}, Planner: BestFSC{}}, &b
}

// TestTigerAcceptance: Tiger, m ≤ 2 (147 controllers), T = 4, ε = 0, 0.3,
// 0.5, observation reward: regret 0 at ε = 0 (thm:exact-sufficiency) and
// regret ≤ the printed bound at every ε.
func TestTigerAcceptance(t *testing.T) {
	cfg, _ := tigerObs(t)
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.FamilySize != 147 {
		t.Errorf("family size %d, want 147", res.FamilySize)
	}
	for _, r := range res.Rows {
		t.Logf("ε=%g classes=%d VQ=%.6f VM=%.6f ref=%.6f regret=%.3g bound=%v verdict=%s", r.Eps, r.Classes, r.VQ, r.VM, r.Reference, r.Regret, r.Bound, r.Verdict)
		if r.Eps == 0 && math.Abs(r.Regret) > 1e-9 {
			t.Errorf("ε = 0: regret %g, want 0", r.Regret)
		}
		if r.Verdict != WithinBound {
			t.Errorf("ε = %g: verdict %q", r.Eps, r.Verdict)
		}
	}
	t.Logf("L_R: %+v", res.LR)
}

// TestSearchProgress: the quotient search reports its progress through
// Config.Distance.Progress (a bar would otherwise stand still for the whole
// search), in one pass for all ε values (phase "plan quotients") over the
// controllers with distinct action trees: 75 of Tiger's 147 for m ≤ 2,
// T = 4 (counted here from law.ActionTree). Today's main searched each ε
// separately over all 147.
func TestSearchProgress(t *testing.T) {
	cfg, _ := tigerObs(t)
	fam, err := fsc.New(cfg.Kind, 3, 2, cfg.M, cfg.T, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := law.NewTree(2, cfg.T)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for i := 0; i < fam.Len(); i++ {
		keys[string(law.ActionTree(nil, fam.At(i), tree))] = true
	}
	phase, ends := "", map[string][]int{}
	cfg.Distance.Phase = func(s string) { phase = s }
	cfg.Distance.Progress = func(done, total int) {
		if done == total && phase != "probes" && phase != "classes" && phase != "distances" && phase != "expand" {
			ends[phase] = append(ends[phase], total)
		}
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if got := ends["plan quotients"]; len(got) != 1 || got[0] != len(keys) || len(keys) != 75 {
		t.Errorf("completed searches by phase: %v; want one in \"plan quotients\" over %d controllers (75 expected)", ends, len(keys))
	}
}

// TestWritePGHeader: the .pg's leading comment names what its nodes stand
// for (it said "(depth, class)" for unrolled controllers too).
func TestWritePGHeader(t *testing.T) {
	for _, c := range []struct {
		ctrl int
		want string
	}{{0, "nodes are (depth, controller node)"}, {-1, "nodes are (depth, class)"}} {
		l := &Lifted{T: 1, NumActions: 1, NumObs: 1, Nodes: []Node{
			{Depth: 0, Class: -1 - c.ctrl, Obs: -1, Ctrl: c.ctrl, Next: []int{1}},
			{Depth: 1, Class: -1 - c.ctrl, Obs: -1, Ctrl: c.ctrl, Next: []int{1}}}}
		var b strings.Builder
		if err := l.WritePG(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("Ctrl = %d: header %q, want %q", c.ctrl, strings.SplitN(b.String(), "\n", 2)[0], c.want)
		}
	}
}

// TestGivenDistances: Run with Config.Distances (computed once, in
// decision mode with Compact at more ε than planned, as pomdpq analyze
// does) gives the rows of Run computing its own, for the model's reward
// and for an observation reward on the same kernels; distances that do
// not decide a planned ε, or of another horizon, are refused.
func TestGivenDistances(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	eps := []float64{0, 0.3, 0.5}
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 2, 3, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := distance.Compute(context.Background(), m, fam, 3, distance.Options{Ground: b.Ground, Eps: []float64{0, 0.1, 0.3, 0.4, 0.5}, Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	om, err := value.WithObsReward(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []*pomdp.Model{m, om} {
		cfg := Config{Model: model, Ground: b.Ground, Kind: fsc.KindStationary, M: 2, T: 3, Eps: eps, Planner: BestFSC{}}
		own, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Distances = d
		given, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range own.Rows {
			g := given.Rows[i]
			if g.Classes != r.Classes || g.VM != r.VM || g.VQ != r.VQ || g.Policy != r.Policy {
				t.Errorf("%s ε = %g: given distances %d classes, V_M %g, V_Q %g, %s; own %d, %g, %g, %s", model.Name, r.Eps, g.Classes, g.VM, g.VQ, g.Policy, r.Classes, r.VM, r.VQ, r.Policy)
			}
		}
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"ε not decided", Config{Model: m, Ground: b.Ground, Kind: fsc.KindStationary, M: 2, T: 3, Eps: []float64{0.2}, Planner: BestFSC{}, Distances: d}, "do not decide ε = 0.2"},
		{"other horizon", Config{Model: m, Ground: b.Ground, Kind: fsc.KindStationary, M: 2, T: 2, Eps: []float64{0}, Planner: BestFSC{}, Distances: d}, "T = 3"},
	} {
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
