package repro

import (
	"context"
	"fmt"
	"strconv"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "worked-examples", Label: "app:examples, §7 prose",
		Title: "Numbers stated in the paper's prose and worked examples", Build: workedExamples})
}

// classesApart is classes with the depth-T histories counted apart.
func classesApart(model string, m, T int, eps float64) func(context.Context, *Env) (string, string, error) {
	return func(ctx context.Context, env *Env) (string, string, error) {
		r, _, err := distances(ctx, env, model, fsc.KindStationary, m, T, false)
		if err != nil {
			return "", "", err
		}
		p := r.Partition(eps)
		return itoa(depthTApart(p)), fmt.Sprintf("counting the %d depth-%d histories apart instead of as one class (their suffix is empty; docs/conventions.md#class-counts puts them together: %d classes)",
			len(p.Labels[T]), T, p.Total()), nil
	}
}

func maxDistance(model string, m, T int) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		r, _, err := distances(ctx, env, model, fsc.KindStationary, m, T, false)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(r.MaxDistance(), 'f', 4, 64), nil
	}
}

// tigerListenNext returns P(O_2 = L | h) for the listen-only Tiger.
func tigerListenNext(h string) func(context.Context, *Env) (string, error) {
	return func(context.Context, *Env) (string, error) {
		b, err := bench.Lookup("tiger-listen")
		if err != nil {
			return "", err
		}
		l, err := law.Compute(b.Model, fsc.Constant(1, 2, 0), 2, law.UniformStandIn)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(l.Suffix(1, historyIndex(b, h))[0], 'f', 4, 64), nil
	}
}

// witnessLaw returns P(O_{2:3} = x | h) under the ½/½ stochastic controller.
func witnessLaw(h, x string) func(context.Context, *Env) (string, error) {
	return func(context.Context, *Env) (string, error) {
		b, err := bench.StationaryWitness()
		if err != nil {
			return "", err
		}
		l, err := law.Compute(b.Model, fsc.Mixed(5, []float64{0.5, 0.5}), 3, law.UniformStandIn)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(l.Suffix(1, historyIndex(b, h))[historyIndex(b, x)], 'f', 4, 64), nil
	}
}

func witnessStochasticW1(context.Context, *Env) (string, error) {
	b, err := bench.StationaryWitness()
	if err != nil {
		return "", err
	}
	l, err := law.Compute(b.Model, fsc.Mixed(5, []float64{0.5, 0.5}), 3, law.UniformStandIn)
	if err != nil {
		return "", err
	}
	w, err := ot.SeqW1(b.Ground, 2, l.Suffix(1, historyIndex(b, "L")), l.Suffix(1, historyIndex(b, "R")))
	return strconv.FormatFloat(w, 'f', 4, 64), err
}

// m2Paragraph computes the m = 2 paragraph of §7.1: clock-aware m = 2
// (1,296 FSCs) vs stationary m ≤ 2 (147) on Tiger at T = 2.
func m2Paragraph(what string) func(context.Context, *Env) (string, error) {
	return func(ctx context.Context, env *Env) (string, error) {
		clk, _, err := distances(ctx, env, "tiger", fsc.KindClock, m2ParagraphM, m2ParagraphT, false)
		if err != nil {
			return "", err
		}
		op, _, err := distances(ctx, env, "tiger", fsc.KindStationary, m2ParagraphM, m2ParagraphT, false)
		if err != nil {
			return "", err
		}
		switch what {
		case "clk":
			return itoa(clk.FamilySize), nil
		case "op":
			return itoa(op.FamilySize), nil
		case "classes":
			a, b := clk.Partition(0).Total(), op.Partition(0).Total()
			if a != b {
				return fmt.Sprintf("%d vs %d", a, b), nil
			}
			return itoa(a), nil
		case "ari":
			return f3(partition.ARIPartitions(clk.Partition(0), op.Partition(0))), nil
		case "gap":
			g := 0.0
			for t := range clk.D {
				for k, v := range clk.D[t].Data {
					g = max(g, abs(v-op.D[t].Data[k]))
				}
			}
			return f3(g), nil
		}
		return "", fmt.Errorf("repro: unknown m2 quantity %q", what)
	}
}

var claims = []claim{
	{id: "tiger_we_pLL", value: tigerListenNext("L")},
	{id: "tiger_we_pLR", value: tigerListenNext("R")},
	{id: "tiger_we_w1", value: pairDistance("tiger-listen", fsc.KindStationary, 1, 2, 1, "L", "R", distance.W1)},
	{id: "tiger_we_classes_eps0", value: classes("tiger-listen", fsc.KindStationary, 1, 2, 0),
		rebuild: classesApart("tiger-listen", 1, 2, 0)},
	{id: "tiger_we_classes_eps0_5", value: classes("tiger-listen", fsc.KindStationary, 1, 2, 0.5)},
	{id: "tiger_full_D12", value: pairDistance("tiger", fsc.KindStationary, 1, 2, 1, "L", "R", distance.W1)},
	{id: "witness_det_distance", value: pairDistance("witness", fsc.KindStationary, 1, 3, 1, "L", "R", distance.W1)},
	{id: "witness_p_UU_given_L", value: witnessLaw("L", "U U")},
	{id: "witness_p_UX_given_L", value: witnessLaw("L", "U X")},
	{id: "witness_p_UU_given_R", value: witnessLaw("R", "U U")},
	{id: "witness_p_UY_given_R", value: witnessLaw("R", "U Y")},
	{id: "witness_stochastic_w1", value: witnessStochasticW1},
	{id: "dp_gw3_orig", value: maxDistance("gridworld:3", 1, 2)},
	{id: "dp_gw3_coarse", value: maxDistance("gridworld-coarse:3", 1, 2)},
	{id: "dp_gw5_orig", value: maxDistance("gridworld:5", 1, 2)},
	{id: "dp_gw5_coarse", value: maxDistance("gridworld-coarse:5", 1, 2)},
	{id: "m2_clk_fscs", value: m2Paragraph("clk")},
	{id: "m2_stationary_fscs", value: m2Paragraph("op")},
	{id: "m2_classes", value: m2Paragraph("classes")},
	{id: "m2_ari", value: m2Paragraph("ari")},
	{id: "m2_gap", value: m2Paragraph("gap")},
	{id: "gw5_T3_classes_eps0", value: classes("gridworld:5", fsc.KindStationary, 1, 3, 0)},
	{id: "gw5_T3_classes_eps0_6", value: classes("gridworld:5", fsc.KindStationary, 1, 3, 0.6)},
	{id: "gw10_classes_eps0", value: classes("gridworld:10", fsc.KindStationary, 1, 2, 0)},
	{id: "gw10_classes_eps0_25", value: classes("gridworld:10", fsc.KindStationary, 1, 2, 0.25)},
	{id: "gw10_classes_eps_ge_0_45", value: classes("gridworld:10", fsc.KindStationary, 1, 2, 0.45)},
	{id: "rocksample_classes_eps0", value: classes("rocksample:4:4", fsc.KindStationary, 1, 2, 0)},
	{id: "rocksample_classes_eps0_25", value: classes("rocksample:4:4", fsc.KindStationary, 1, 2, 0.25)},
	{id: "rocksample_classes_eps_ge_0_45", value: classes("rocksample:4:4", fsc.KindStationary, 1, 2, 0.45)},
	{id: "w1tv_classes_eps0_w1", value: classes("gridworld:5", fsc.KindStationary, 1, 2, 0)},
	{id: "w1tv_classes_eps0_3_w1", value: classes("gridworld:5", fsc.KindStationary, 1, 2, 0.3)},
	{id: "planning_gw_T3_classes_eps1", value: classes("gridworld:3", fsc.KindStationary, 1, 3, 1.0)},
	{id: "sensor_grid_w1_approx", pattern: true, value: pairDistance("sensor-grid", fsc.KindStationary, 1, 2, 1, "obs_2", "obs_3", distance.W1),
		judge: sensorGridJudge("sensor_grid_w1_approx")},
	{id: "sensor_grid_tv_approx", pattern: true, value: pairDistance("sensor-grid", fsc.KindStationary, 1, 2, 1, "obs_2", "obs_3", distance.TV),
		judge: sensorGridJudge("sensor_grid_tv_approx")},
	{id: "tiger_lr_bound", value: func(context.Context, *Env) (string, error) {
		b, err := bench.Lookup("tiger")
		if err != nil {
			return "", err
		}
		lo, hi := b.Model.R[0][0], b.Model.R[0][0]
		for _, row := range b.Model.R {
			for _, r := range row {
				lo, hi = min(lo, r), max(hi, r)
			}
		}
		return strconv.FormatFloat(hi-lo, 'f', -1, 64), nil
	}},
}

// sensorGridEps is the ε of the sensor-grid claim: W1 stays below it
// while TV exceeds it.
const sensorGridEps = 0.2

// sensorGridJudge returns the judge of one sensor-grid row (§7 prose):
// on our reconstruction of the sensor grid, the W1 distance of the two
// adjacent observations stays below ε = 0.2 while their TV distance
// exceeds it. The reconstruction's accuracy (bench.DefaultSensorAccuracy)
// is a free parameter chosen so that the example comes out, so the rows
// are not judged (they were pattern agreements): the judge says which
// side of ε each value falls and whether it is the printed one.
func sensorGridJudge(id string) func(ctx context.Context, env *Env) verdict.Judgement {
	return func(ctx context.Context, env *Env) verdict.Judgement {
		w, err := pairDistance("sensor-grid", fsc.KindStationary, 1, 2, 1, "obs_2", "obs_3", distance.W1)(ctx, env)
		if err != nil {
			return verdict.NotJudgedBecause(err.Error())
		}
		tv, err := pairDistance("sensor-grid", fsc.KindStationary, 1, 2, 1, "obs_2", "obs_3", distance.TV)(ctx, env)
		if err != nil {
			return verdict.NotJudgedBecause(err.Error())
		}
		all, err := datasets.Claims()
		if err != nil {
			return verdict.NotJudgedBecause(err.Error())
		}
		printed := all[id].Value
		ours, name, below := w, "W1", true
		if id == "sensor_grid_tv_approx" {
			ours, name, below = tv, "TV", false
		}
		v, _ := strconv.ParseFloat(ours, 64)
		side := v < sensorGridEps
		rel := "stays below"
		if !below {
			side, rel = v > sensorGridEps, "exceeds"
		}
		places := 0
		if p, err := verdict.Parse(printed); err == nil {
			places = p.Places()
		}
		near, how := verdict.Check(ours, printed, verdict.Approx, places)
		holds := map[bool]string{true: "as claimed", false: "against the claim"}[side]
		is := map[bool]string{true: "is", false: "is not"}[near]
		// The accuracy is a free parameter of our reconstruction, set so
		// that the example's numbers come out: nothing independent is
		// compared, so the row is not judged; what we computed is said.
		return verdict.NotJudgedBecause(fmt.Sprintf("the sensor grid's accuracy (%g) is a free parameter of our reconstruction (the paper does not define it), so its value is not evidence; with it, %s = %s %s ε = %g %s and %s the printed ≈%s (%s)",
			bench.DefaultSensorAccuracy, name, ours, rel, sensorGridEps, holds, is, printed, how))
	}
}

func workedExamples(ctx context.Context, env *Env) (*Table, error) {
	all, err := datasets.Claims()
	if err != nil {
		return nil, err
	}
	t := &Table{Name: "worked-examples", Paper: "inline-claims", Label: "inline claims",
		Title:   "Numbers stated in the paper's prose, figures and worked examples",
		Columns: []Column{{"id", Key}, {"section_label", Info}, {"quantity", Info}, {"value", Exact}}}
	patterns, err := addClaims(ctx, env, t, all, claims)
	if err != nil {
		return nil, err
	}
	claimJudges(t, patterns)
	return t, nil
}
