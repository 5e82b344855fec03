// Package report builds the one-page analysis of a model that `pomdpq
// analyze` writes and the web page (web/) shows: sizes, probe families with
// their cost estimates, class-count curves over ε, certificates (the
// envelope gap δ_S of greedy controller subsets, the cross-family gap
// δ_clk, stand-in counts), the quotient diagram, the soundness check, an
// optional policy's values, planning through the quotient (planning.go), whether it pays (payoff.go)
// and the exported quotient files.
//
// Build computes everything under a memory budget: a computation whose
// estimate exceeds it is not run, and the page says why (the
// distance.BudgetError message) instead of the numbers. The distances
// are computed once per family, in decision mode at a grid of ε fixed
// before the run (CurveGrid, to DefaultCurveTop times the ground
// metric's largest entry, with the requested ε): the curves, the
// requested counts, the quotient drawn and the planning section read
// their partitions, and a max distance beyond the grid is printed as a
// bound ("> 0.5"). Without a horizon
// it picks the largest whose pre-flight estimate (Preflight: family size,
// distance.Plan's exact classes, laws and memory, a timed pilot of the
// transport problems in decision mode, pilot.go, and one timed soundness
// check for the phases after the distances) fits a time and memory Budget, and says
// what the next would cost (budget.go); a family too large to enumerate is
// explained in words, with the branch-and-bound search where it applies
// (Infeasible). A quotient with more
// than DiagramPerDepth classes at a depth is drawn collapsed, with a table
// of its classes beside it (diagram.go).
//
// Rendering opens no file: WriteHTML writes one self-contained HTML page
// (inline CSS and SVG from package render, no script, no external asset),
// WriteFragment the same content to insert into another page, Files the
// quotient as .pomdp and JSON in memory, and SetEps with QuotientHTML
// redraw the quotient at another ε. Report.Write puts the page and the
// files beside it on disk, linked by relative paths.
package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/clock"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// Defaults of Options.
const (
	// MaxDefaultT is the largest horizon ChooseT picks (its budget
	// decides below it).
	MaxDefaultT = 6
	// DefaultGridPoints is the number of ε values of the class-count
	// curves: steps of 0.02 on the default grid [0, 0.5] of the discrete
	// metric (DefaultCurveTop).
	DefaultGridPoints = 26
	// DiagramPerDepth is the most classes of one depth the quotient
	// diagram draws as nodes: past it the depth's smallest classes are
	// collapsed into one node with their count, and a table lists every
	// class.
	DiagramPerDepth = 20
	// DefaultSoundnessProbes bounds the probes the soundness check runs.
	DefaultSoundnessProbes = 500
	// DefaultTensorEntries bounds the certificate tensor (pairs × distinct probes).
	DefaultTensorEntries = 20_000_000
	// DefaultClockWork bounds clock.Work for δ_clk.
	DefaultClockWork = 1e6
	// SoundTol is the largest soundness gap reported as "sound".
	SoundTol = 1e-9
)

// Options configure Build. The zero value chooses everything.
type Options struct {
	// T is the horizon; 0 lets ChooseT pick it within the budget.
	T int
	// Kind is the kind of the probe families: fsc.KindStationary (the
	// default) or fsc.KindClock.
	Kind fsc.Kind
	// Ms lists the memory bounds of the probe families (default 1 and 2).
	Ms []int
	// Eps is the tolerance of the quotient drawn and exported (default 0,
	// the exact quotient).
	Eps float64
	// EpsList, if not empty, lists ε values whose class counts the page
	// gives in a table of their own (as pomdpq quotient --eps prints them).
	EpsList []float64
	// Seconds is the time budget of a chosen horizon, in estimated
	// seconds of one core (0: DefaultSeconds, negative: none).
	Seconds float64
	// GridPoints is the number of ε values of the curves (default DefaultGridPoints).
	GridPoints int
	// CurveTop is the end of the curves' ε grid (0: DefaultCurveTop times
	// the ground metric's largest entry). The partitions are decided up
	// to it (decision mode): a larger end costs more transport problems.
	CurveTop float64
	// MemBudget is the memory budget in bytes (0: distance.DefaultMemBudget,
	// negative: none).
	MemBudget int64
	// Ground is the ground metric on observations (nil: discrete).
	Ground ot.Ground
	// GroundName and GroundSource say what Ground is and where it came
	// from (ot.Described); the page prints them beside the results.
	GroundName, GroundSource string
	// Policy, if not nil, is evaluated on the model and on the quotient:
	// any controller starting in node 0, or a policy graph (deterministic,
	// stationary, policy.None allowed in Next) starting in PolicyStart,
	// which is then also analysed by policy.Analyze.
	Policy      *fsc.FSC
	PolicyStart int
	// PolicyName names the policy on the page (its file name).
	PolicyName string
	// By says what writes the report, as HTML (default: pomdpq analyze).
	By string
	// Phase and Progress, when set, receive the phases and their progress
	// (as distance.Options).
	Phase    func(name string)
	Progress func(done, total int)
}

// Family is one probe family's part of the report.
type Family struct {
	M        int
	Size     int // controllers, duplicates included
	Distinct int // distinct behaviours
	// Cost is the pre-flight estimate of the distance computation.
	Cost distance.Cost
	// Refused holds the reason the distances were not computed (a budget
	// refusal), empty when they were.
	Refused string
	Kind    fsc.Kind
	Exact   int // classes at ε = 0
	// MaxDistance is the largest d^Π when MaxExact, else the end of the
	// decided range (the grid's end, or the largest requested ε): some
	// pair is farther apart than it.
	MaxDistance float64
	MaxExact    bool
	StandIns    int
	Curve       []int // classes at each ε of Report.Grid
	Seconds     float64

	res *distance.Result
	fam fsc.Family
}

// Certificates holds the certificate section.
type Certificates struct {
	// Family is the memory bound whose tensor was used; Steps the greedy
	// chain S_1 ⊂ S_2 ⊂ … with δ_{S_k} (empty when not computed, Note says
	// why).
	M     int
	Steps []certify.GreedyStep
	Cols  int // distinct probes (tensor columns)
	Note  string
	// DeltaClk is δ_clk = ‖d^clk − d^op‖∞ for m = 1 (NaN when not
	// computed, ClkNote says why); ClkClasses and OpClasses the exact class
	// counts of the two quotients.
	DeltaClk              float64
	ClkClasses, OpClasses int
	ClkNote               string
}

// Soundness is one soundness check: the largest gap
// max_x |P_M^π(x) − P_Q^π(x)| over the probes checked.
type Soundness struct {
	Eps     float64
	Classes int
	Probes  int // probes checked
	Of      int // family size
	MaxGap  float64
	Worst   int // family index attaining MaxGap
	Broken  int // probes with a gap above SoundTol
}

// Report is a model's analysis, ready to be written.
type Report struct {
	Model   *pomdp.Model
	Source  string // the model as the user named it
	Kind    fsc.Kind
	T       int
	TReason string // how T was chosen
	Budget  int64
	// Seconds budget of a chosen T (0: none).
	TimeBudget float64

	// Requested holds the class counts at Options.EpsList.
	Requested []Requested

	Families []Family
	// Grid is the ε values of the curves, fixed before the run (CurveGrid);
	// Decided every ε at which the families' partitions were decided
	// (the grid, Options.EpsList and Options.Eps): distance.Compute ran in
	// decision mode at them (distance.Options.Eps with Compact), so
	// partitions exist at these ε only.
	Grid    []float64
	Decided []float64
	// GroundMax is the largest entry of the ground metric.
	GroundMax float64

	Cert Certificates

	// Quotient is the quotient drawn and exported: of the largest family
	// computed, at DiagramEps (Options.Eps, or what SetEps set).
	Quotient   *quotient.Quotient
	QuotientM  int
	DiagramEps float64
	Soundness  []Soundness
	// Exported is the quotient as a model, aggregated under Reference.
	Exported  *pomdp.Model
	Reference string
	ExportErr string

	Policy *PolicyResult
	// Planning is the section "Planning through the quotient" (planning.go).
	Planning *Planning

	// Ground is the ground metric the distances were computed with.
	Ground ot.Described

	Seconds float64
	Created time.Time

	ground ot.Ground
	opt    Options
}

// Requested is the class count of every computed family at one ε of
// Options.EpsList (Classes[i] is of Families[i], -1 when it was refused).
type Requested struct {
	Eps     float64
	Classes []int
}

// Build computes the report of model m (named source on the page).
func Build(ctx context.Context, m *pomdp.Model, source string, opt Options) (*Report, error) {
	start := time.Now()
	if err := m.Validate(); err != nil {
		return nil, err
	}
	opt, gd, err := withDefaults(m, opt)
	if err != nil {
		return nil, err
	}
	phase := func(string) {}
	if opt.Phase != nil {
		phase = opt.Phase
	}
	budget := opt.MemBudget
	if budget == 0 {
		budget = distance.DefaultMemBudget()
	}
	secs := opt.Seconds
	if secs == 0 {
		secs = DefaultSeconds
	}
	b := Budget{Bytes: budget, Seconds: max(secs, 0), CurveTop: opt.CurveTop}
	r := &Report{Model: m, Source: source, Kind: opt.Kind, T: opt.T, Budget: budget, Created: time.Now().UTC(), Cert: Certificates{DeltaClk: math.NaN()}, Ground: gd, ground: opt.Ground, opt: opt}
	if r.T <= 0 {
		phase("choose T")
		T, why, err := ChooseT(ctx, m, opt.Kind, opt.Ms, b)
		if err != nil {
			return nil, err
		}
		r.T, r.TReason, r.TimeBudget = T, why, b.Seconds
	} else {
		r.TReason = fmt.Sprintf("T = %d given", r.T)
	}

	// The curves' grid and every ε to decide, fixed before the run.
	r.GroundMax = opt.Ground.Max()
	r.Grid = CurveGrid(curveTop(opt.CurveTop, r.GroundMax), opt.GridPoints)
	r.Decided = decided(r.Grid, opt.EpsList, opt.Eps)

	// Distances per family, in decision mode at the listed ε.
	for _, k := range opt.Ms {
		f, err := r.family(ctx, k, opt, b, phase)
		if err != nil {
			return nil, err
		}
		r.Families = append(r.Families, f)
	}
	r.requested(opt.EpsList)
	phase("curves")
	if err := r.curves(ctx); err != nil {
		return nil, err
	}

	big := r.largest()
	if err := r.certificates(ctx, opt, budget, phase); err != nil {
		return nil, err
	}
	if big != nil {
		phase("quotient")
		if err := r.SetEps(ctx, opt.Eps); err != nil {
			return nil, err
		}
	}
	if opt.Policy != nil {
		phase("policy")
		p, err := r.policy(ctx, opt.Policy, opt.PolicyStart, opt.PolicyName)
		if err != nil {
			return nil, err
		}
		r.Policy = p
	}
	if err := r.planning(ctx, opt, budget, phase); err != nil {
		return nil, err
	}
	phase("")
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// withDefaults checks opt against m and fills in its defaults (memories
// 1, 2, the grid's points, the discrete ground metric, the stationary
// family); it returns the ground metric's description too.
func withDefaults(m *pomdp.Model, opt Options) (Options, ot.Described, error) {
	if len(opt.Ms) == 0 {
		opt.Ms = []int{1, 2}
	}
	for _, k := range opt.Ms {
		if k < 1 {
			return opt, ot.Described{}, fmt.Errorf("report: memory bound m = %d: want m ≥ 1", k)
		}
	}
	if opt.GridPoints <= 1 {
		opt.GridPoints = DefaultGridPoints
	}
	if opt.Eps < 0 || math.IsNaN(opt.Eps) {
		return opt, ot.Described{}, fmt.Errorf("report: ε = %g: want a non-negative number", opt.Eps)
	}
	gd := ot.Described{Ground: opt.Ground, Name: opt.GroundName, Source: opt.GroundSource}
	if opt.Ground == nil {
		opt.Ground = ot.Discrete(m.NumObservations())
		gd = ot.DescribeDiscrete(m.NumObservations(), "default: no ground metric given")
	}
	if opt.Kind == "" {
		opt.Kind = fsc.KindStationary
	}
	if opt.Kind != fsc.KindStationary && opt.Kind != fsc.KindClock {
		return opt, gd, fmt.Errorf("report: family %q: want %s or %s", opt.Kind, fsc.KindStationary, fsc.KindClock)
	}
	for _, e := range opt.EpsList {
		if e < 0 || math.IsNaN(e) {
			return opt, gd, fmt.Errorf("report: ε = %g: want a non-negative number", e)
		}
	}
	if opt.CurveTop < 0 || math.IsNaN(opt.CurveTop) || math.IsInf(opt.CurveTop, 0) {
		return opt, gd, fmt.Errorf("report: curve end %g: want a positive number (0: the default)", opt.CurveTop)
	}
	return opt, gd, nil
}

// family computes the distances of the probe family of memory k in
// decision mode at r.Decided. A family too large to build, too slow for
// the time budget of a chosen T, or over the memory budget comes back with
// Refused set and a nil error.
func (r *Report) family(ctx context.Context, k int, opt Options, b Budget, phase func(string)) (Family, error) {
	m := r.Model
	f := Family{M: k, Kind: opt.Kind}
	fam, err := fsc.New(opt.Kind, m.NumActions(), m.NumObservations(), k, r.T, fsc.Options{})
	if err != nil {
		var tl *fsc.TooLargeError
		if errors.As(err, &tl) {
			f.Refused = Infeasible(tl, m, r.T, b)
			return f, nil
		}
		return f, err
	}
	f.fam, f.Size = fam, fam.Len()
	if h := sum(r.histories()); opt.T <= 0 && b.Seconds > 0 {
		if s := PlanPasses * float64(f.Size) * float64(h) * float64(m.NumStates()) / LawRate; s > b.Seconds {
			f.Refused = fmt.Sprintf("not computed at the chosen T = %d: the laws of %d controllers on %d histories would take about %s, more than the %s budget; give --T to force it",
				r.T, f.Size, h, seconds(s), seconds(b.Seconds))
			return f, nil
		}
	}
	dopt := distance.Options{Ground: opt.Ground, MemBudget: b.Bytes, Progress: opt.Progress, Eps: r.Decided, Compact: true,
		Phase: func(name string) { phase(fmt.Sprintf("m≤%d %s", k, name)) }}
	t0 := time.Now()
	res, err := distance.Compute(ctx, m, fam, r.T, dopt)
	if err != nil {
		var be *distance.BudgetError
		if errors.As(err, &be) {
			f.Refused, f.Cost = be.Error(), be.Cost
			return f, nil
		}
		return f, err
	}
	f.res, f.Seconds = res, time.Since(t0).Seconds()
	f.Cost, f.Distinct, f.StandIns = res.Cost, res.Distinct, res.StandIns
	f.Exact, f.MaxDistance, f.MaxExact = res.Classes.Total(), res.MaxDistance(), res.MaxDistanceExact()
	return f, nil
}

// requested fills r.Requested: the classes of every family at each ε of
// list (−1 for a family not computed).
func (r *Report) requested(list []float64) {
	for _, e := range list {
		q := Requested{Eps: e}
		for _, f := range r.Families {
			n := -1
			if f.res != nil {
				n = f.res.Partition(e).Total()
			}
			q.Classes = append(q.Classes, n)
		}
		r.Requested = append(r.Requested, q)
	}
}

// curves fills each computed family's class counts over the common grid.
func (r *Report) curves(ctx context.Context) error {
	for i := range r.Families {
		f := &r.Families[i]
		if f.res == nil {
			continue
		}
		for _, e := range r.Grid {
			if err := ctx.Err(); err != nil {
				return err
			}
			f.Curve = append(f.Curve, f.res.Partition(e).Total())
		}
	}
	return nil
}

// DefaultCurveTop is the default end of the curves' ε grid, as a
// fraction of the ground metric's largest entry g_max: ε up to half a
// step of complete disagreement, the range of the tolerances the paper
// tabulates (0 to 0.5 under the discrete metric). The a-priori bound is
// larger (d^Π ≤ g_max·(T − t) at depth t), and deciding up to it costs
// nearly as much as exact distances: on hallway, m ≤ 1, T = 4 (pomdpq
// quotient, decision mode, 31 ε values, CPU seconds on the project's
// machine) the grid to 0.5 took 13.4 s, to 1 took 28 s, and to 4 did
// not finish in 300 s of wall time.
const DefaultCurveTop = 0.5

// curveTop returns the end of the curves' grid: top when given, else
// DefaultCurveTop times gmax (times 1 when gmax is not positive).
func curveTop(top, gmax float64) float64 {
	if top > 0 {
		return top
	}
	if !(gmax > 0) {
		gmax = 1
	}
	return DefaultCurveTop * gmax
}

// CurveGrid returns the ε values of the curves: n values from 0 to top.
// The grid is fixed before the distances are computed, so that they are
// computed in decision mode at it (distance.Options.Eps): a pair of
// classes is settled as soon as it is known to be beyond the grid,
// without the transport problems that would give its exact distance,
// which is what lets a report reach the horizons of pomdpq quotient.
func CurveGrid(top float64, n int) []float64 {
	g := make([]float64, n)
	for i := range g {
		g[i] = math.Round(top*float64(i)/float64(n-1)*1e9) / 1e9
	}
	return g
}

// decided returns the grid, the requested ε and the ε drawn, sorted,
// without repeats: the ε at which a report decides its partitions.
func decided(grid, list []float64, eps float64) []float64 {
	out := append(append(append([]float64(nil), grid...), list...), eps)
	for i := range out {
		out[i] += 0 // −0 is 0
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Grid returns n ε values from 0 to a round number at or above top (0 … 1
// when top is 0).
func Grid(top float64, n int) []float64 {
	top = math.Round(top*1e9) / 1e9 // distances carry rounding noise
	if top <= 0 {
		top = 1
	}
	// Round the end up to 1, 2 or 5 times a power of ten, times a tenth.
	p := math.Pow(10, math.Floor(math.Log10(top)))
	end := math.Ceil(top/p*10) * p / 10
	g := make([]float64, n)
	for i := range g {
		g[i] = end * float64(i) / float64(n-1)
		// Clean decimal values for display.
		g[i] = math.Round(g[i]*1e9) / 1e9
	}
	return g
}

// largest returns the computed family with the largest memory bound.
func (r *Report) largest() *Family {
	var best *Family
	for i := range r.Families {
		f := &r.Families[i]
		if f.res != nil && (best == nil || f.M > best.M) {
			best = f
		}
	}
	return best
}

// certificates fills r.Cert: the greedy chain of the largest family whose
// tensor fits, and δ_clk for m = 1.
func (r *Report) certificates(ctx context.Context, opt Options, budget int64, phase func(string)) error {
	c := &r.Cert
	m := r.Model
	// The tensor: every pair of histories times every distinct probe.
	f := r.largest()
	switch {
	case f == nil:
		c.Note = "no family was computed"
	default:
		c.M = f.M
		pairs := int64(0)
		for _, n := range f.res.Cost.Histories {
			pairs += int64(n) * int64(n-1) / 2
		}
		entries := pairs * int64(f.Distinct)
		tensorOpt := distance.Options{Ground: opt.Ground, Tensor: true, MemBudget: budget, Progress: opt.Progress,
			Phase: func(name string) { phase(fmt.Sprintf("tensor m≤%d %s", f.M, name)) }}
		if entries > DefaultTensorEntries {
			c.Note = fmt.Sprintf("not computed: the per-probe tensor would hold %d history pairs × %d distinct probes = %.3g entries (more than %.3g); a smaller T or m would help",
				pairs, f.Distinct, float64(entries), float64(DefaultTensorEntries))
			break
		}
		res, err := distance.Compute(ctx, m, f.fam, r.T, tensorOpt)
		var be *distance.BudgetError
		switch {
		case errors.As(err, &be):
			c.Note = "not computed: " + be.Error()
		case err != nil:
			return err
		default:
			t, err := certify.FromResult(res)
			if err != nil {
				return err
			}
			phase("greedy subsets")
			c.Cols = len(t.Cols)
			// The chain up to the first subset with δ_S = 0 (at most 8).
			for _, s := range certify.GreedyCurve(t, min(8, len(t.Cols))) {
				c.Steps = append(c.Steps, s)
				if s.Gap <= partition.ZeroTol {
					break
				}
			}
		}
	}
	// δ_clk for one-node probes.
	w := clock.Work(m.NumActions(), m.NumObservations(), r.T)
	if w > DefaultClockWork {
		c.ClkNote = fmt.Sprintf("not computed: the exact recursion would visit %.3g (history, prefix) pairs (more than %.3g)", w, DefaultClockWork)
		return nil
	}
	phase("delta-clk")
	d, err := clock.NewDistances(ctx, m, opt.Ground, r.T, &clock.Options{MaxBytes: float64(budget), Progress: opt.Progress})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		c.ClkNote = "not computed: " + err.Error()
	default:
		c.DeltaClk = d.Gap
		c.ClkClasses, c.OpClasses = d.Quotients.Clk.Total(), d.Quotients.Op.Total()
	}
	return nil
}

// SetEps sets the quotient drawn, checked and exported to the ε-quotient
// of the largest computed family, with its soundness checks and its
// export: Build calls it with Options.Eps, and the web page's ε slider
// with the ε chosen (then QuotientHTML and Files render it again).
func (r *Report) SetEps(ctx context.Context, eps float64) error {
	f := r.largest()
	if f == nil {
		return errors.New("report: no family was computed, so there is no quotient")
	}
	if eps < 0 || math.IsNaN(eps) {
		return fmt.Errorf("report: ε = %g: want a non-negative number", eps)
	}
	if !slices.Contains(r.Decided, eps+0) {
		return fmt.Errorf("report: ε = %g was not decided: the partitions were computed in decision mode at ε = %v only (Options.EpsList adds more)", eps, r.Decided)
	}
	opt := r.opt
	r.QuotientM = f.M
	r.DiagramEps = eps
	r.Soundness, r.Exported, r.ExportErr = nil, nil, ""
	p := f.res.Partition(eps)
	q, err := quotient.New(r.Model, r.T, p)
	if err != nil {
		return err
	}
	r.Quotient = q

	if opt.Phase != nil {
		opt.Phase("soundness")
	}
	epss := []float64{0}
	if r.DiagramEps > 0 {
		epss = append(epss, r.DiagramEps)
	}
	for _, e := range epss {
		qe := q
		if e != r.DiagramEps {
			if qe, err = quotient.New(r.Model, r.T, f.res.Partition(e)); err != nil {
				return err
			}
		}
		s, err := soundness(ctx, qe, f.fam, e, DefaultSoundnessProbes, opt.Progress)
		if err != nil {
			return err
		}
		r.Soundness = append(r.Soundness, s)
	}

	ref := fsc.Constant(r.Model.NumActions(), r.Model.NumObservations(), 0)
	r.Reference = fmt.Sprintf("the one-node probe that always takes action %q", r.Model.Actions[0])
	ex, err := q.Export(ref)
	if err != nil {
		r.ExportErr = err.Error()
		return nil
	}
	if slices.Equal(ex.Observations, r.Model.Observations) && !r.Ground.Ground.IsDiscrete() {
		// The JSON export carries the ground metric; the .pomdp one lists
		// it in a comment.
		ex.Ground = &pomdp.Ground{Name: r.Ground.Name, D: r.Ground.Ground}
	}
	r.Exported = ex
	return nil
}

// soundness runs the soundness check on up to limit probes of fam, spread
// evenly over the family.
func soundness(ctx context.Context, q *quotient.Quotient, fam fsc.Family, eps float64, limit int, progress func(int, int)) (Soundness, error) {
	n := fam.Len()
	k := min(n, limit)
	s := Soundness{Eps: eps, Classes: q.Classes(), Probes: k, Of: n, Worst: -1}
	for j := 0; j < k; j++ {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		i := j * n / k
		gap, _, err := q.SoundnessGap(fam.At(i))
		if err != nil {
			return s, err
		}
		if gap > s.MaxGap || s.Worst < 0 {
			s.MaxGap, s.Worst = gap, i
		}
		if gap > SoundTol {
			s.Broken++
		}
		if progress != nil {
			progress(j+1, k)
		}
	}
	return s, nil
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
