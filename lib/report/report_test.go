package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/policy"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
	"github.com/pomdpq/pomdpq/lib/statbb"
	"github.com/pomdpq/pomdpq/lib/value"
)

func tiger(t *testing.T) (*pomdp.Model, bench.Benchmark) {
	t.Helper()
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	return b.Model, b
}

// listenThenOpen is the quickstart's two-node probe: listen; after L open
// the right door; after R listen again.
func listenThenOpen() *fsc.FSC {
	return &fsc.FSC{Nodes: 2, NumActions: 3, NumObs: 2, Act: [][]int{{0, 2}}, Next: [][][]int{{{1, 0}, {0, 0}}}}
}

func TestBuildTiger(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground, Policy: listenThenOpen(), PolicyName: "listen-then-open"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Families) != 2 {
		t.Fatalf("%d families, want m ≤ 1 and m ≤ 2", len(r.Families))
	}
	for _, f := range r.Families {
		if f.Refused != "" {
			t.Fatalf("m ≤ %d refused: %s", f.M, f.Refused)
		}
		// An independent count: the family's ε = 0 partition by distance.Exact.
		fam, _ := fsc.NewStationary(3, 2, f.M, fsc.Options{})
		ex, err := distance.Exact(context.Background(), m, fam, 3, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		if f.Exact != ex.Partition.Total() || f.Curve[0] != f.Exact {
			t.Errorf("m ≤ %d: %d exact classes, curve starts at %d; distance.Exact gives %d", f.M, f.Exact, f.Curve[0], ex.Partition.Total())
		}
		for i := 1; i < len(f.Curve); i++ {
			if f.Curve[i] > f.Curve[i-1] {
				t.Errorf("m ≤ %d: classes rise from %d to %d between ε = %g and %g", f.M, f.Curve[i-1], f.Curve[i], r.Grid[i-1], r.Grid[i])
			}
		}
		// Decision mode against exact distances (distance.Compute without
		// Eps): the same counts at every grid point, and the max distance
		// exact only when it lies within the grid, else the grid's end.
		exact, err := distance.Compute(context.Background(), m, fam, 3, distance.Options{Ground: b.Ground})
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range r.Grid {
			if want := exact.Partition(e).Total(); f.Curve[i] != want {
				t.Errorf("m ≤ %d, ε = %g: curve %d, exact distances %d", f.M, e, f.Curve[i], want)
			}
		}
		end := r.Grid[len(r.Grid)-1]
		if top := exact.MaxDistance(); f.MaxExact != (top <= end+partition.ZeroTol) || f.MaxExact && math.Abs(f.MaxDistance-top) > 1e-12 || !f.MaxExact && f.MaxDistance > top {
			t.Errorf("m ≤ %d: max distance %g (exact: %v), exact distances give %g, grid end %g", f.M, f.MaxDistance, f.MaxExact, top, end)
		}
	}
	if end := r.Grid[len(r.Grid)-1]; end != DefaultCurveTop*b.Ground.Max() || len(r.Grid) != DefaultGridPoints || r.Grid[0] != 0 {
		t.Errorf("grid %v: want %d values from 0 to %g × g_max = %g", r.Grid, DefaultGridPoints, DefaultCurveTop, b.Ground.Max())
	}
	for _, e := range r.Grid {
		if !slices.Contains(r.Decided, e) {
			t.Errorf("ε = %g of the grid not decided (%v)", e, r.Decided)
		}
	}
	if err := r.SetEps(context.Background(), 0.123456); err == nil || !strings.Contains(err.Error(), "not decided") {
		t.Errorf("SetEps at an ε not decided: %v", err)
	}
	// m ≤ 2 sees more: its curve lies on or above m = 1's.
	for i := range r.Grid {
		if r.Families[1].Curve[i] < r.Families[0].Curve[i] {
			t.Errorf("ε = %g: m ≤ 2 has %d classes, fewer than m = 1's %d", r.Grid[i], r.Families[1].Curve[i], r.Families[0].Curve[i])
		}
	}
	// Soundness of the exact quotient (thm:myhill-nerode (ii)).
	if len(r.Soundness) != 1 || r.Soundness[0].Eps != 0 || r.Soundness[0].MaxGap > SoundTol || r.Soundness[0].Probes != 147 {
		t.Errorf("soundness %+v, want ε = 0, all 147 probes, gap ≤ %g", r.Soundness, SoundTol)
	}
	// The greedy chain ends at δ_S = 0 and its gaps do not rise.
	c := r.Cert
	if len(c.Steps) == 0 || c.Steps[len(c.Steps)-1].Gap > 1e-12 {
		t.Errorf("greedy chain %+v does not reach δ_S = 0", c.Steps)
	}
	for i := 1; i < len(c.Steps); i++ {
		if c.Steps[i].Gap > c.Steps[i-1].Gap+1e-12 {
			t.Errorf("δ_S rises at k = %d", c.Steps[i].K)
		}
	}
	if math.IsNaN(c.DeltaClk) || c.DeltaClk < 0 {
		t.Errorf("δ_clk not computed: %s", c.ClkNote)
	}
	// The policy is a probe of the family: the exact quotient keeps its law,
	// hence its value, and it tells no two members of a class apart.
	p := r.Policy
	if p.Analysis == nil || p.Analysis.Verdict != policy.Member || len(p.Analysis.Splits) != 0 || p.LawSplit != 0 ||
		math.Abs(p.ValueModel-p.ValueQuotient) > 1e-9 {
		t.Errorf("policy in the family on the exact quotient: %+v, analysis %+v", p, p.Analysis)
	}
	want, _ := value.Evaluate(m, listenThenOpen(), 3, value.LatentReward{})
	if p.ValueModel != want {
		t.Errorf("V_M = %g, value.Evaluate gives %g", p.ValueModel, want)
	}
}

// TestPolicySplit: a two-node policy is outside the m = 1 family, whose
// ε = 0.5 quotient merges histories the policy tells apart.
func TestPolicySplit(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 4, Ms: []int{1}, Eps: 0.5, Ground: b.Ground, Policy: listenThenOpen()})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Policy
	if p.Analysis == nil || p.Analysis.Verdict == policy.Member || len(p.Analysis.Splits) == 0 ||
		p.LawSplit == 0 || p.MaxLawSplit <= 0 || len(p.Examples) == 0 {
		t.Fatalf("a two-node policy against the m = 1, ε = 0.5 quotient: %+v, analysis %+v", p, p.Analysis)
	}
	// Every example pair lies in one class and has the policy's distance.
	for _, e := range p.Examples {
		if e.A == e.B || len(e.A) != len(e.B) {
			t.Errorf("example %+v", e)
		}
	}
}

// TestPolicyWithinEps: for a policy of the family, every pair of one class
// of an ε-quotient (complete linkage: d^Π ≤ ε) has d^π ≤ d^Π ≤ ε.
func TestPolicyWithinEps(t *testing.T) {
	m, b := tiger(t)
	for _, eps := range []float64{0.3, 0.5, 0.9} {
		r, err := Build(context.Background(), m, "tiger", Options{T: 4, Eps: eps, Ground: b.Ground, Policy: listenThenOpen()})
		if err != nil {
			t.Fatal(err)
		}
		p := r.Policy
		if p.MaxLawSplit > eps+1e-9 {
			t.Errorf("ε = %g: the policy's largest distance inside a class is %g", eps, p.MaxLawSplit)
		}
		if p.Analysis.Verdict != policy.Member {
			t.Errorf("ε = %g: verdict %v", eps, p.Analysis.Verdict)
		}
	}
}

func TestBudgetRefusal(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground, MemBudget: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Families {
		if !strings.Contains(f.Refused, "budget") {
			t.Errorf("m ≤ %d under a 1 KiB budget: refused = %q", f.M, f.Refused)
		}
	}
	var sb strings.Builder
	if err := r.WriteHTML(&sb, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "not computed") {
		t.Error("the page does not say the families were not computed")
	}
}

func TestChooseT(t *testing.T) {
	m, _ := tiger(t)
	b := Budget{Bytes: distance.DefaultMemBudget(), Seconds: DefaultSeconds}
	T, why, err := ChooseT(context.Background(), m, fsc.KindStationary, []int{1, 2}, b)
	if err != nil || T != MaxDefaultT {
		t.Fatalf("tiger: T = %d (%s), %v; want %d", T, why, err, MaxDefaultT)
	}
	// Tag's m ≤ 2 family is too large at every horizon: m = 1 decides, and
	// the refusal is said in words with what would work.
	tag, err := bench.Lookup("tag")
	if err != nil {
		t.Fatal(err)
	}
	T, why, err = ChooseT(context.Background(), tag.Model, fsc.KindStationary, []int{1, 2}, b)
	if err != nil || T < 1 || !strings.Contains(why, "m ≤ 2 fits at no horizon") || !strings.Contains(why, "enumerating them is impossible") ||
		!strings.Contains(why, "the m ≤ 1 family") || strings.Contains(why, "raise the limit") {
		t.Fatalf("tag: T = %d (%s), %v", T, why, err)
	}
	// The search that would work is named at the horizon chosen.
	// (with the --workers that fit the memory budget, when not all cores do)
	if want := fmt.Sprintf(`exact branch-and-bound search \(pomdpq quotient --family stationary --m 2 --search --T %d(?: --workers \d+)?\)`, T); !regexp.MustCompile(want).MatchString(why) {
		t.Errorf("tag: T = %d, %q does not say %q", T, why, want)
	}
}

// TestChooseTBudget: the horizon is monotone in the time budget, and the
// sentence names the next horizon, its seconds and its memory with the
// largest term. The budgets are 100× apart or more so that the noise of
// the measured estimates cannot reorder them (at T = 1 the soundness
// checks and the planning section of 147 controllers are estimated at
// about 0.1 s: the smallest budget that fits is 1 s).
func TestChooseTBudget(t *testing.T) {
	m, _ := tiger(t)
	prev := 0
	for _, secs := range []float64{1e-6, 1, 100, 1e4} {
		b := Budget{Bytes: distance.DefaultMemBudget(), Seconds: secs}
		T, why, err := ChooseT(context.Background(), m, fsc.KindStationary, []int{2}, b)
		if secs == 1e-6 {
			if err == nil {
				t.Errorf("%g s: T = %d (%s), want no horizon", secs, T, why)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if T < prev {
			t.Errorf("%g s: T = %d, below the %d of a smaller budget", secs, T, prev)
		}
		prev = T
		if T < MaxDefaultT {
			next := fmt.Sprintf("T = %d would need ", T+1)
			if !strings.Contains(why, next+"about") && !strings.Contains(why, next+"at least") {
				t.Errorf("%g s: T = %d, the sentence %q does not say what T = %d would need", secs, T, why, T+1)
			}
			if !strings.Contains(why, "of memory (largest term") {
				t.Errorf("%g s: T = %d, the sentence %q does not say the memory", secs, T, why)
			}
		}
	}
	if prev < 4 {
		t.Errorf("tiger m ≤ 2 within 10000 s: T = %d", prev)
	}
}

// TestInfeasibleWords: a family too large to enumerate is explained by
// its size and what would work, never by "raise the limit"; a stationary
// m ≤ 2 family names the branch-and-bound search.
func TestInfeasibleWords(t *testing.T) {
	b, err := bench.Lookup("random:204:4:28:1")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	_, err = fsc.New(fsc.KindStationary, 4, 28, 2, 3, fsc.Options{})
	var tl *fsc.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("m ≤ 2 with 4 actions and 28 observations: %v, want a *fsc.TooLargeError", err)
	}
	// The search's belief tables are one per worker (all cores by
	// default): the words must not depend on the machine's core count
	// beyond the --workers they name (with 8 cores the 1 GiB budget used
	// to be "does not fit either", with 2 it fitted).
	computes := regexp.MustCompile(`exact branch-and-bound search \(pomdpq quotient --family stationary --m 2 --search --T 3(?: --workers (\d+))?\) computes`)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8, 64} {
		runtime.GOMAXPROCS(procs)
		s := Infeasible(tl, m, 3, Budget{Bytes: 1 << 30})
		// The size by hand: k-node controllers have |A|^k action labels and
		// k^(k·|O|) transition tables; m ≤ 2 gives 4 + 4²·2^56 ≈ 1.153·10^18,
		// written 1.2·10^18.
		for _, want := range []string{"m ≤ 2 has 1.2·10^18 controllers", "enumerating them is impossible", "the m ≤ 1 family (4 controllers)", "stochastic-stationary"} {
			if !strings.Contains(s, want) {
				t.Errorf("GOMAXPROCS %d: %q does not say %q", procs, s, want)
			}
		}
		if strings.Contains(s, "raise the limit") {
			t.Errorf("%q", s)
		}
		sub := computes.FindStringSubmatch(s)
		if sub == nil {
			t.Errorf("GOMAXPROCS %d: %q does not say the search computes it", procs, s)
			continue
		}
		// The workers named are the most that fit the budget.
		w, fitsAll := procs, statbb.EstimateCost(m, 3, procs).Bytes() <= 1<<30
		if sub[1] != "" {
			w, _ = strconv.Atoi(sub[1])
		}
		if fitsAll != (sub[1] == "") || w < 1 || w > procs || statbb.EstimateCost(m, 3, w).Bytes() > 1<<30 ||
			(w < procs && statbb.EstimateCost(m, 3, w+1).Bytes() <= 1<<30) {
			t.Errorf("GOMAXPROCS %d: %q names %d workers", procs, s, w)
		}
	}
	// A budget below the search's own estimate says it does not fit.
	if s := Infeasible(tl, m, 3, Budget{Bytes: 1}); !strings.Contains(s, "search (pomdpq quotient --family stationary --m 2 --search --T 3) does not fit either") {
		t.Errorf("1 byte: %q", s)
	}
	// Clock-aware families have no search.
	_, err = fsc.New(fsc.KindClock, 4, 28, 2, 3, fsc.Options{})
	if !errors.As(err, &tl) {
		t.Fatalf("clock m ≤ 2: %v", err)
	}
	if s := Infeasible(tl, m, 3, Budget{Bytes: 1 << 30}); strings.Contains(s, "--search") {
		t.Errorf("clock: %q", s)
	}
}

func TestMagnitude(t *testing.T) {
	for _, c := range []struct {
		n    string
		want string
	}{{"4", "4"}, {"9999999", "9999999"}, {"10000000", "1.0·10^7"}, {"1152921504606846980", "1.2·10^18"}, {"1049999999", "1.0·10^9"}} {
		n, _ := new(big.Int).SetString(c.n, 10)
		if got := Magnitude(n); got != c.want {
			t.Errorf("Magnitude(%s) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestGrid(t *testing.T) {
	for _, c := range []struct{ top, end float64 }{{1.47, 1.5}, {0.98, 0.98}, {0, 1}, {2.3, 2.3}, {0.123, 0.13}} {
		g := Grid(c.top, 11)
		if len(g) != 11 || g[0] != 0 || math.Abs(g[10]-c.end) > 1e-9 || g[10] < c.top {
			t.Errorf("Grid(%g) = %v, want 0 … %g", c.top, g, c.end)
		}
	}
}

// TestWriteHTML parses the page: one document, inline SVG (the curves and
// the diagram with its nodes), tables, no script and no external
// reference, and relative links to files that exist.
func TestWriteHTML(t *testing.T) {
	m, b := tiger(t)
	r, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "tiger.html")
	files, err := r.Write(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	ids := map[string]bool{}
	var links, anchors []string
	diagramNodes := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			count[n.Data]++
			for _, a := range n.Attr {
				switch {
				case a.Key == "href" && n.Data == "a" && strings.HasPrefix(a.Val, "#"):
					anchors = append(anchors, a.Val)
				case a.Key == "href" && n.Data == "a":
					links = append(links, a.Val)
				case a.Key == "id":
					ids[a.Val] = true
				case a.Key == "src" || (a.Key == "href" && n.Data != "a"):
					t.Errorf("<%s %s=%q>: the page must not load anything", n.Data, a.Key, a.Val)
				case a.Key == "class" && a.Val == "nodes" && n.Data == "g":
					diagramNodes = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if count["svg"] < 2 || count["table"] < 5 || !diagramNodes || count["script"] != 0 || count["link"] != 0 {
		t.Errorf("elements %v, diagram nodes %v: want ≥ 2 svg, ≥ 5 tables, the diagram, no script or link", count, diagramNodes)
	}
	// Tiger's observation R is a .pomdp keyword: written renamed (R_), and
	// the page says so; both files read back to the exported model.
	if len(files) != 2 || files[0].Err != "" || files[0].Name != "tiger-quotient.pomdp" || files[1].Name != "tiger-quotient.json" {
		t.Fatalf("files %+v", files)
	}
	if !strings.Contains(files[0].What, `"R" as R_`) {
		t.Errorf("the .pomdp file's description does not name the rename: %q", files[0].What)
	}
	// Links to files: exactly the two exported ones. In-page links: each
	// class of the diagram links to its card in "Why these classes"
	// (Tiger's quotient has fewer classes than report.WhyCards), and every
	// target exists on the page.
	if len(links) != 2 || links[0] != "tiger-quotient.pomdp" || links[1] != "tiger-quotient.json" {
		t.Fatalf("links %v, want the .pomdp and the JSON file", links)
	}
	if len(anchors) != r.Quotient.Classes() {
		t.Errorf("%d in-page links %v, want one per class of the diagram (%d)", len(anchors), anchors, r.Quotient.Classes())
	}
	for _, a := range anchors {
		if !ids[strings.TrimPrefix(a, "#")] {
			t.Errorf("link %s: no element with that id", a)
		}
	}
	for _, l := range links {
		q, err := modelfile.Load(filepath.Join(dir, l))
		if err != nil {
			t.Fatal(err)
		}
		if q.NumStates() != r.Exported.NumStates() || !slices.Equal(q.Observations, r.Exported.Observations) || !slices.Equal(q.States, r.Exported.States) {
			t.Errorf("%s: %d states, observations %q; the report's quotient %d, %q", l, q.NumStates(), q.Observations, r.Exported.NumStates(), r.Exported.Observations)
		}
	}
}

// TestPolicyMissing: a graph whose "-" is reached within the horizon is
// refused, also when no family is computed (no quotient, no
// policy.Analyze); it used to be evaluated with the "-" as a self-loop.
func TestPolicyMissing(t *testing.T) {
	m, b := tiger(t)
	// Listen; after L listen again in node 1, after R nothing ("-").
	holey := &fsc.FSC{Nodes: 2, NumActions: 3, NumObs: 2, Act: [][]int{{0, 0}}, Next: [][][]int{{{1, policy.None}, {0, 0}}}}
	for _, budget := range []int64{0, 1 << 10} { // computed families, and all refused
		_, err := Build(context.Background(), m, "tiger", Options{T: 3, Ground: b.Ground, MemBudget: budget, Policy: holey, PolicyName: "holey.pg"})
		var me *policy.MissingError
		if !errors.As(err, &me) || me.Node != 0 || me.Obs != 1 || !strings.Contains(err.Error(), "holey.pg") {
			t.Errorf("budget %d: error %v, want a *policy.MissingError for node 0, observation R, naming holey.pg", budget, err)
		}
	}
	// Within one step the "-" is never used: the report is built.
	r, err := Build(context.Background(), m, "tiger", Options{T: 1, Ground: b.Ground, Policy: holey, PolicyName: "holey.pg"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Policy.ValueModel != -1 {
		t.Errorf("one listen: value %g, want -1", r.Policy.ValueModel)
	}
}

// TestReportGround: the page names the ground metric the distances used,
// with its source, or the discrete metric as the default; the exported
// quotient carries a ground metric that is not the discrete one.
func TestReportGround(t *testing.T) {
	gw, err := bench.Lookup("gridworld:3")
	if err != nil {
		t.Fatal(err)
	}
	d := gw.Described()
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{T: 2, Ms: []int{1}, Ground: gw.Ground, GroundName: d.Name, GroundSource: d.Source}, d.String()},
		{Options{T: 2, Ms: []int{1}}, "discrete 0/1 (default: no ground metric given)"},
	} {
		r, err := Build(context.Background(), gw.Model, "gridworld:3", c.opt)
		if err != nil {
			t.Fatal(err)
		}
		var page strings.Builder
		if err := r.WriteHTML(&page, nil); err != nil {
			t.Fatal(err)
		}
		if r.Ground.String() != c.want || !strings.Contains(page.String(), "ground metric "+c.want) || !strings.Contains(page.String(), c.want+"</td>") {
			t.Errorf("ground %q, want %q in the header and the sizes table", r.Ground, c.want)
		}
		if want := c.opt.Ground != nil; (r.Exported.Ground != nil) != want {
			t.Errorf("exported quotient ground %v, want one: %v", r.Exported.Ground, want)
		}
	}
}
