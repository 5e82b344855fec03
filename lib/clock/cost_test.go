package clock

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/pomdpq/pomdpq/internal/shared"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// TestEstimateCost checks the class-pair counts of EstimateCost against
// the class matrices NewDistances fills, and MaxBytes.
func TestEstimateCost(t *testing.T) {
	b := lookup(t, "gridworld:3")
	ctx := context.Background()
	r, err := Quotients(ctx, b.Model, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := EstimateCost(r, b.Model.NumActions())
	d, err := NewDistances(ctx, b.Model, b.Ground, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	var clk, op int64
	for t := range d.ClkClasses {
		clk += int64(len(d.ClkClasses[t].Data))
		op += int64(len(d.OpClasses[t].Data))
	}
	if c.ClkPairs != clk || c.OpPairs != op {
		t.Errorf("EstimateCost pairs %d/%d, matrices hold %d/%d", c.ClkPairs, c.OpPairs, clk, op)
	}
	if !(c.Fixed >= 8*float64(clk+op)) || !(c.Bytes >= c.Fixed) || !(c.Alignments >= float64(c.ClkPairs)) {
		t.Errorf("EstimateCost = %+v, want Bytes ≥ Fixed ≥ the matrices' %d bytes", c, 8*(clk+op))
	}
	// The run's own estimate is what MaxBytes bounds: half of it is
	// refused, with the phase and a term named.
	_, err = NewDistances(ctx, b.Model, b.Ground, 3, &Options{MaxBytes: float64(d.PeakBytes) / 2})
	var be *BudgetError
	if !errors.As(err, &be) || !errors.Is(err, ErrTooLarge) || be.Phase == "" || be.Term == "" || be.Need <= be.Budget {
		t.Errorf("MaxBytes = PeakBytes/2: got %v, want a *BudgetError wrapping ErrTooLarge", err)
	}
	if _, err := NewDistances(ctx, b.Model, b.Ground, 3, &Options{MaxBytes: 2 * float64(d.PeakBytes)}); err != nil {
		t.Errorf("MaxBytes = 2·PeakBytes: %v", err)
	}
}

// TestProgressAndCancel checks that Progress counts class pairs up to
// their total and that cancelling from it stops NewDistances.
func TestProgressAndCancel(t *testing.T) {
	b := lookup(t, "tiger")
	const T = 8
	r, err := Quotients(context.Background(), b.Model, T, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := EstimateCost(r, b.Model.NumActions())
	last, calls := 0, 0
	opts := &Options{Progress: func(done, total int) {
		if int64(total) != c.ClkPairs+c.OpPairs || done < last || done > total {
			t.Errorf("Progress(%d, %d) after %d, want total %d", done, total, last, c.ClkPairs+c.OpPairs)
		}
		last = done
		calls++
	}}
	if _, err := NewDistances(context.Background(), b.Model, b.Ground, T, opts); err != nil {
		t.Fatal(err)
	}
	if last != int(c.ClkPairs+c.OpPairs) || calls < 2 {
		t.Errorf("Progress ended at %d after %d calls, want %d", last, calls, c.ClkPairs+c.OpPairs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = func(done, total int) { cancel() }
	if _, err := NewDistances(ctx, b.Model, b.Ground, T, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled from Progress: got %v, want context.Canceled", err)
	}
}

// TestOracleSharedFile compares NewDistances with the oracle bit for bit
// on tiger-grid (36 states, 5 actions, 17 observations; third-party,
// beside the repository) at T = 2, a model whose observation laws have
// wide supports (general simplex steps). Twin: TestOracleTwinFile.
func TestOracleSharedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("short: skipping the tiger-grid comparison")
	}
	m, err := modelfile.Load(shared.Path(t, "TestOracleTwinFile", "pomdp", "tiger-grid.POMDP"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []Transport{TransportW1, TransportNested} {
		compareOracle(t, "tiger-grid", m, ot.Discrete(m.NumObservations()), 2, tr)
	}
}

// TestOracleTwinFile compares NewDistances with the full-matrix oracle bit
// for bit on our own model file testdata/noisy-grid.pomdp (6 states, 3
// actions, 6 observations, each observation law on 3 or 4 observations:
// the wide supports of tiger-grid and hallway) at T = 1, 2 and 3 under the
// discrete metric, for both transports.
func TestOracleTwinFile(t *testing.T) {
	m, err := modelfile.Load(filepath.Join("testdata", "noisy-grid.pomdp"))
	if err != nil {
		t.Fatal(err)
	}
	for T := 1; T <= 3; T++ {
		for _, tr := range []Transport{TransportW1, TransportNested} {
			compareOracle(t, "noisy-grid", m, ot.Discrete(m.NumObservations()), T, tr)
		}
	}
	// Not a comparison of zeros: the histories are told apart.
	d, err := NewDistances(context.Background(), m, ot.Discrete(m.NumObservations()), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(d.MaxClk[1] > 0 && d.Gap > 0) || d.Beliefs < 100 {
		t.Errorf("noisy-grid T=3: max δ_clk at depth 1 %v, gap %v, %d beliefs; want positive distances over ≥ 100 beliefs", d.MaxClk[1], d.Gap, d.Beliefs)
	}
}

// pinned holds results of the full-matrix oracle (oracle_test.go) on the
// third-party files at T = 3 under the discrete metric, as float64 bits:
// the oracle takes minutes there (hallway: about 4 minutes per
// transport), NewDistances seconds.
var pinned = []struct {
	file                  string
	tr                    Transport
	gap                   uint64
	depth, i, j           int
	maxClk, maxOp, maxGap [4]uint64
}{
	{"tiger-grid.POMDP", TransportW1, 0x3ff69faf842f1d21, 1, 0, 7,
		[4]uint64{0, 0x3fffb6134ce3de6d, 0x3fefb6134ce3de65, 0},
		[4]uint64{0, 0x3fffb6134ce3de69, 0x3fefb6134ce3de65, 0},
		[4]uint64{0, 0x3ff69faf842f1d21, 0x3feba36dacd84a71, 0}},
	{"tiger-grid.POMDP", TransportNested, 0x3ff6b4bda3e4deb8, 1, 0, 7,
		[4]uint64{0, 0x3fffb6134ce3de65, 0x3fefb6134ce3de67, 0},
		[4]uint64{0, 0x3fffb6134ce3de64, 0x3fefb6134ce3de65, 0},
		[4]uint64{0, 0x3ff6b4bda3e4deb8, 0x3feba36dacd84a72, 0}},
	{"hallway.POMDP", TransportW1, 0x3feccccccccccccd, 2, 16, 17,
		[4]uint64{0, 0x400000000000000c, 0x3ff0000000000008, 0},
		[4]uint64{0, 0x4000000000000005, 0x3ff0000000000007, 0},
		[4]uint64{0, 0x3fd66a73afecee8a, 0x3feccccccccccccd, 0}},
	{"hallway.POMDP", TransportNested, 0x3feccccccccccccd, 2, 16, 17,
		[4]uint64{0, 0x4000000000000005, 0x3ff000000000000a, 0},
		[4]uint64{0, 0x4000000000000004, 0x3ff0000000000007, 0},
		[4]uint64{0, 0x3fd6a9fe7c1d4288, 0x3feccccccccccccd, 0}},
}

// TestPinnedSharedFiles checks NewDistances bit for bit against oracle
// results pinned in the source (see pinned), on third-party files beside
// the repository. Twin: TestOracleTwinFile, which runs the oracle itself
// at T = 3 on our own file.
func TestPinnedSharedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("short: skipping the third-party files at T = 3")
	}
	for _, p := range pinned {
		m, err := modelfile.Load(shared.Path(t, "TestOracleTwinFile", "pomdp", p.file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDistances(context.Background(), m, ot.Discrete(m.NumObservations()), 3, &Options{Transport: p.tr})
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(d.Gap) != p.gap || d.GapDepth != p.depth || d.GapI != p.i || d.GapJ != p.j {
			t.Errorf("%s %v: δ_clk %v at (%d, %d, %d), oracle %v at (%d, %d, %d)", p.file, p.tr,
				d.Gap, d.GapDepth, d.GapI, d.GapJ, math.Float64frombits(p.gap), p.depth, p.i, p.j)
		}
		for k := range 4 {
			if math.Float64bits(d.MaxClk[k]) != p.maxClk[k] || math.Float64bits(d.MaxOp[k]) != p.maxOp[k] || math.Float64bits(d.MaxGap[k]) != p.maxGap[k] {
				t.Errorf("%s %v depth %d: maxima %v/%v/%v differ from the oracle's %v/%v/%v", p.file, p.tr, k,
					d.MaxClk[k], d.MaxOp[k], d.MaxGap[k], math.Float64frombits(p.maxClk[k]),
					math.Float64frombits(p.maxOp[k]), math.Float64frombits(p.maxGap[k]))
			}
		}
	}
}
