package repro

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/sample"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "m2-scaling", Label: "tab:m2-scaling", Heavy: true,
		Title: "Probe-family scaling, m = 1 vs m = 2, sampled (500 trajectories) beside exact", Build: m2Scaling})
}

// perFSC runs the paper's apparent m = 2 protocol once (seed 0): every
// controller sampled independently, duplicates included
// (sample.Options.Independent), and returns its class counts and maximum.
func perFSC(ctx context.Context, env *Env, model string, m, T int, eps []float64) ([]int, float64, error) {
	type res struct {
		counts []int
		max    float64
	}
	r, err := memo(env, fmt.Sprintf("perfsc|%s|%d|%d|%v", model, m, T, eps), func() (res, error) {
		b, err := benchmark(env, model)
		if err != nil {
			return res{}, err
		}
		fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), m, fsc.Options{})
		if err != nil {
			return res{}, err
		}
		run, err := sample.Compute(ctx, b.Model, fam, T, sample.Options{Ground: b.Ground, Independent: true,
			Trajectories: scaleN, Workers: env.workers(), Progress: env.progress(model + " per-FSC sampling")})
		if err != nil {
			return res{}, err
		}
		out := res{max: run.MaxDistance()}
		for _, e := range eps {
			out.counts = append(out.counts, run.Partition(e).Total())
		}
		return out, nil
	})
	return r.counts, r.max, err
}

func m2Scaling(ctx context.Context, env *Env) (*Table, error) {
	eps := []float64{0, 0.1, 0.3, 0.5}
	t := &Table{Name: "m2-scaling", Paper: "m2-scaling", Label: "tab:m2-scaling",
		Title: "m = 1 vs m = 2 class counts, sampled (500 trajectories, seed 0) beside the exact ones; 95% bootstrap CI on max W1",
		Columns: []Column{{"benchmark", Key}, {"n_states", Setting}, {"m", Key}, {"horizon", Key}, {"fscs", Exact},
			{"classes_eps0", Exact}, {"classes_eps0_1", Exact}, {"classes_eps0_3", Exact}, {"classes_eps0_5", Exact},
			{"runtime_s", Timing}, {"ci_low", Pattern}, {"ci_high", Pattern},
			{"max_w1", Info}, {"exact_max_w1", Info}, {"exact_classes", Info}, {"seed_ranges", Info},
			{"per_fsc_classes", Info}, {"per_fsc_max_w1", Info}, {"laws", Info}, {"problems", Info}}}
	judges := map[int]statJudge{}
	perCounts := map[int][]int{}
	counts := colIndex(t, "classes_eps0", "classes_eps0_1", "classes_eps0_3", "classes_eps0_5")
	for _, c := range []struct {
		name, model string
		T           int
	}{{"RockSample(4,4)", "rocksample:4:4", 2}, {"Network Monitoring (n=4)", "netmon:4", 3}, {"Network Monitoring (n=9)", "netmon:9", 2}} {
		for _, m := range []int{1, 2} {
			sc, err := sampled(ctx, env, c.model, m, c.T, eps)
			if err != nil {
				return nil, err
			}
			pc, pmax := sc.counts, sc.run.MaxDistance() // m = 1 families have no duplicates
			if m == 2 {
				if pc, pmax, err = perFSC(ctx, env, c.model, m, c.T, eps); err != nil {
					return nil, err
				}
			}
			row := []string{c.name, itoa(sc.b.Model.NumStates()), itoa(m), itoa(c.T), itoa(sc.fam.Len())}
			for _, n := range sc.counts {
				row = append(row, itoa(n))
			}
			row = append(row, f3(sc.seconds), fnum(sc.iv.Low), fnum(sc.iv.High), f3(sc.run.MaxDistance()), f3(sc.exactMax),
				joinInts(sc.exactCnt), ranges(sc.lo, sc.hi), joinInts(pc), f3(pmax), itoa(sc.run.Laws), itoa(sc.run.Problems))
			i := len(t.Rows)
			judges[i] = statJudge{exactCols: colIndex(t, "fscs"), countCols: counts, lo: sc.lo, hi: sc.hi, seeds: sc.seeds,
				ciCols: ciColumns(t), iv: sc.iv, exactMax: sc.exactMax}
			perCounts[i] = pc
			t.Rows = append(t.Rows, row)
		}
	}
	statTable(t, judges)
	// The table's reading: every controller sampled independently,
	// duplicates included (seed scaleSeed), on every row.
	perFSCCols := map[string]int{}
	covers := map[string]string{}
	for k, c := range counts {
		perFSCCols[t.Columns[c].Name] = k
		covers[t.Columns[c].Name] = fmt.Sprintf("the count with every controller sampled independently (per_fsc_classes, seed %d)", scaleSeed)
	}
	t.Reading = &verdict.Reading{
		How:    fmt.Sprintf("the paper evidently samples every controller independently, duplicates included (sample.Options.Independent, seed %d): each duplicate adds another noisy estimate of the same law to the maximum, where our default shares one sample per distinct behaviour", scaleSeed),
		Covers: covers,
		Value: func(i int, col string) (float64, bool) {
			k, ok := perFSCCols[col]
			if !ok || k >= len(perCounts[i]) {
				return 0, false
			}
			return float64(perCounts[i][k]), true
		},
	}
	notes, err := m2Notes(t, eps, counts)
	if err != nil {
		return nil, err
	}
	t.Notes = append(t.Notes, notes...)
	return t, nil
}

// m2Notes writes the notes of tab:m2-scaling from its cells (counts are
// the class-count columns, at eps) and from the paper's m2-scaling.csv.
func m2Notes(t *Table, eps []float64, counts []int) ([]string, error) {
	keys := func(i int) map[string]string {
		return map[string]string{"benchmark": t.at(i, "benchmark"), "m": t.at(i, "m"), "horizon": t.at(i, "horizon")}
	}
	var fscs, laws, bias, ivs, runtimes []string
	for i := range t.Rows {
		exact := strings.Split(t.at(i, "exact_classes"), "/")
		for k, c := range counts {
			if k < len(exact) && exact[k] != t.Rows[i][c] {
				pr, err := paperValue(t.Paper, keys(i), t.Columns[c].Name)
				if err != nil {
					return nil, err
				}
				bias = append(bias, fmt.Sprintf("%s, m = %s at ε = %s: %s exact classes, %s by our sampling, %s printed",
					t.at(i, "benchmark"), t.at(i, "m"), fe(eps[k]), exact[k], t.Rows[i][c], pr))
			}
		}
		if t.at(i, "m") == "1" {
			continue
		}
		n, _ := strconv.Atoi(t.at(i, "fscs"))
		l, _ := strconv.Atoi(t.at(i, "laws"))
		fscs, laws = append(fscs, thousands(n)), append(laws, thousands(l))
		lo, los, err := paperFloat(t.Paper, keys(i), "ci_low")
		if err != nil {
			return nil, err
		}
		hi, his, err := paperFloat(t.Paper, keys(i), "ci_high")
		if err != nil {
			return nil, err
		}
		ex, _ := strconv.ParseFloat(t.at(i, "exact_max_w1"), 64)
		where := "inside it"
		switch hl, hh := Tolerance(los), Tolerance(his); {
		case ex < lo-hl:
			where = "below it"
		case ex > hi+hh:
			where = "above it"
		case ex <= lo+hl:
			where = "at its lower edge"
		}
		ivs = append(ivs, fmt.Sprintf("%s, printed [%s, %s]: the exact %s is %s", t.at(i, "benchmark"), los, his, t.at(i, "exact_max_w1"), where))
		rt, err := paperValue(t.Paper, keys(i), "runtime_s")
		if err != nil {
			return nil, err
		}
		if n, err := strconv.Atoi(rt); err == nil {
			rt = thousands(n)
		}
		runtimes = append(runtimes, rt)
	}
	return []string{
		fmt.Sprintf("Every row is sampled in full, m = 2 included: controllers that act alike at a history share one sampled law (lib/sample), so the %s FSCs need only %s distinct laws. exact_classes and exact_max_w1 are the exact pipeline's (lib/distance).",
			strings.Join(fscs, " / "), strings.Join(laws, " / ")),
		fmt.Sprintf("per_fsc_classes and per_fsc_max_w1 sample every controller independently (sample.Options.Independent, seed %d), duplicates included, which is what the paper's counts indicate: thousands of noisy copies of the same laws raise the sampled maximum further above the exact one.", scaleSeed),
		"Where sampled and exact counts differ it is sampling bias, not a different quotient: the sampled distance of a pair is a maximum over probes of noisy estimates, biased upward, so pairs whose exact distance lies just below ε stay apart. They differ at " + strings.Join(bias, "; ") + ".",
		"The paper's m = 2 intervals against the exact maximum: " + strings.Join(ivs, "; ") + ". Printed intervals estimate the biased sampled maximum, not max W1.",
		fmt.Sprintf("runtime_s is ours (plan + sampling + transport, seed %d; the paper's m = 2 runtimes, %s s, were single-core Python): pattern only.", scaleSeed, strings.Join(runtimes, ", ")),
	}, nil
}
