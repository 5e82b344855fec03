package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
)

type runCase struct {
	model string
	kind  fsc.Kind
	m, T  int
	opt   distance.Options
}

func (c runCase) String() string {
	return fmt.Sprintf("%s/%s-m%d-T%d/%v/eps%v/%v", c.model, c.kind, c.m, c.T, c.opt.Metric, c.opt.Eps, c.opt.Convention)
}

func (c runCase) run(t *testing.T) (Run, *distance.Result) {
	t.Helper()
	b, err := bench.Lookup(c.model)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.New(c.kind, b.Model.NumActions(), b.Model.NumObservations(), c.m, c.T, fsc.Options{Limit: 1 << 22, Samples: 200, Seed: 5, Indexed: true})
	if err != nil {
		t.Fatal(err)
	}
	opt := c.opt
	opt.Ground = b.Ground
	opt.Workers = 2
	single, err := distance.Compute(context.Background(), b.Model, fam, c.T, opt)
	if err != nil {
		t.Fatal(err)
	}
	return Run{Model: b.Model, Ground: b.Ground, Family: fam, T: c.T, Options: opt}, single
}

// sharded runs both rounds through files in dir with n shards, each round
// completing in a random order (rng), and merges.
func sharded(t *testing.T, dir string, r Run, n int, rng *rand.Rand) *distance.Result {
	t.Helper()
	ctx := context.Background()
	r.Count = n
	order := rng.Perm(n)
	for _, i := range order {
		r.Index = i
		f, err := r.Classes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(filepath.Join(dir, fmt.Sprintf("classes-%d.pq", i)), f); err != nil {
			t.Fatal(err)
		}
	}
	parts := readParts(t, dir, "classes-*.pq")
	plan, err := MergeClasses(parts)
	if err != nil {
		t.Fatal(err)
	}
	planPath := filepath.Join(dir, "plan.pq")
	if err := Write(planPath, plan); err != nil {
		t.Fatal(err)
	}
	pf, err := Read(planPath)
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range rng.Perm(n) {
		r.Index = i
		var probes *Part
		if k%2 == 0 { // half the shards reuse their probe lists
			p := readParts(t, dir, fmt.Sprintf("classes-%d.pq", i))
			probes = &p[0]
		}
		f, err := r.Distances(ctx, &Part{Name: planPath, File: pf}, probes)
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(filepath.Join(dir, fmt.Sprintf("dist-%d.pq", i)), f); err != nil {
			t.Fatal(err)
		}
	}
	dparts := readParts(t, dir, "dist-*.pq")
	rng.Shuffle(len(dparts), func(i, j int) { dparts[i], dparts[j] = dparts[j], dparts[i] })
	res, err := MergeDistances(dparts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func readParts(t *testing.T, dir, glob string) []Part {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, glob))
	var parts []Part
	for _, name := range names {
		f, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, Part{Name: name, File: f})
	}
	return parts
}

// TestMergeIsCompute checks the merged result of n = 1, 3, 7 shards,
// completed in random orders, against the single-process Compute: the
// same exact partition, the same class matrices bit for bit (entries up to
// the decision threshold; every entry with exact distances), the same
// ε-partitions and stand-in counts.
func TestMergeIsCompute(t *testing.T) {
	cases := []runCase{
		{model: "tiger", kind: fsc.KindClock, m: 2, T: 3, opt: distance.Options{}},
		{model: "tiger", kind: fsc.KindClock, m: 2, T: 3, opt: distance.Options{Eps: []float64{0, 0.3, 0.5}}},
		{model: "tiger", kind: fsc.KindStationary, m: 2, T: 4, opt: distance.Options{Eps: []float64{0.3}}},
		{model: "random:5:2:3:4", kind: fsc.KindStationary, m: 2, T: 3, opt: distance.Options{}},
		{model: "random:4:2:2:9", kind: fsc.KindClock, m: 2, T: 3, opt: distance.Options{Metric: distance.TV}},
		{model: "random:6:3:2:1", kind: fsc.KindStationary, m: 2, T: 3, opt: distance.Options{Convention: law.PointMassStandIn, Eps: []float64{0, 0.2}}},
		// Sampled families, split into seed ranges.
		{model: "tiger", kind: fsc.KindStochasticClock, m: 2, T: 3, opt: distance.Options{Eps: []float64{0, 0.3}}},
		{model: "random:4:2:2:9", kind: fsc.KindStochasticStationary, m: 2, T: 3, opt: distance.Options{Convention: law.PointMassStandIn}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			r, single := c.run(t)
			for _, n := range []int{1, 3, 7} {
				got := sharded(t, t.TempDir(), r, n, rng)
				if !slices.EqualFunc(got.Classes.Labels, single.Classes.Labels, slices.Equal) {
					t.Fatalf("n = %d: exact partition %v, Compute %v", n, got.Classes.Labels, single.Classes.Labels)
				}
				if got.Cap != single.Cap {
					t.Fatalf("n = %d: threshold %g, Compute %g", n, got.Cap, single.Cap)
				}
				for d := range single.ClassD {
					a, b := got.ClassD[d], single.ClassD[d]
					if a.N != b.N || len(a.Data) != len(b.Data) {
						t.Fatalf("n = %d, depth %d: %d classes, Compute %d", n, d, a.N, b.N)
					}
					for k := range a.Data {
						if a.Data[k] <= got.Cap || b.Data[k] <= got.Cap {
							if math.Float64bits(a.Data[k]) != math.Float64bits(b.Data[k]) {
								t.Fatalf("n = %d, depth %d, entry %d: %v, Compute %v", n, d, k, a.Data[k], b.Data[k])
							}
						}
					}
				}
				if got.StandIns != single.StandIns || got.FamilySize != single.FamilySize {
					t.Fatalf("n = %d: stand-ins %d of %d controllers, Compute %d of %d", n, got.StandIns, got.FamilySize, single.StandIns, single.FamilySize)
				}
				if got.Distinct < single.Distinct {
					t.Fatalf("n = %d: %d probes over the shards, fewer than Compute's %d", n, got.Distinct, single.Distinct)
				}
				eps := c.opt.Eps
				if len(eps) == 0 {
					eps = []float64{0, 0.1, 0.3, 0.5, 1}
				}
				for _, e := range eps {
					if !got.Partition(e).Equal(single.Partition(e)) {
						t.Fatalf("n = %d, ε = %g: partitions differ", n, e)
					}
				}
				// The maximum is exact up to the threshold; above it both
				// are lower bounds above the threshold (docs/scale-out.md).
				sm, gm := single.MaxDistance(), got.MaxDistance()
				if (sm <= single.Cap || gm <= got.Cap) && math.Float64bits(gm) != math.Float64bits(sm) {
					t.Fatalf("n = %d: max distance %v, Compute %v (threshold %g)", n, gm, sm, single.Cap)
				}
			}
		})
	}
}

// TestRefusals checks that merges refuse missing, duplicated, corrupt,
// truncated and mismatched parts with errors naming them, and that a
// killed write leaves nothing that reads as a part.
func TestRefusals(t *testing.T) {
	c := runCase{model: "tiger", kind: fsc.KindStationary, m: 2, T: 3, opt: distance.Options{Eps: []float64{0.5}}}
	b, _ := bench.Lookup(c.model)
	mk := func(T, i, n int, eps []float64) *File {
		fam, err := fsc.New(c.kind, 3, 2, 2, T, fsc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := Run{Model: b.Model, Ground: b.Ground, Family: fam, T: T, Options: distance.Options{Ground: b.Ground, Eps: eps}, Index: i, Count: n}
		f, err := r.Classes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	dir := t.TempDir()
	var parts []Part
	for i := 0; i < 3; i++ {
		name := filepath.Join(dir, fmt.Sprintf("part-%d.pq", i))
		if err := Write(name, mk(3, i, 3, c.opt.Eps)); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, readParts(t, dir, filepath.Base(name))...)
	}
	if _, err := MergeClasses(parts); err != nil {
		t.Fatalf("complete set refused: %v", err)
	}
	other := Part{Name: "other-T.pq", File: mk(4, 1, 3, c.opt.Eps)}
	otherEps := Part{Name: "other-eps.pq", File: mk(3, 1, 3, []float64{0.3})}
	otherN := Part{Name: "other-n.pq", File: mk(3, 1, 4, c.opt.Eps)}
	dup := Part{Name: "again.pq", File: parts[1].File}
	tests := []struct {
		name  string
		parts []Part
		want  []string
	}{
		{"missing", []Part{parts[0], parts[2]}, []string{"missing", "shards 1"}},
		{"duplicated", []Part{parts[0], parts[1], dup, parts[2]}, []string{"part-1.pq", "again.pq", "both shard 1 of 3"}},
		{"other T", []Part{parts[0], other, parts[2]}, []string{"other-T.pq", "T (3 vs 4)"}},
		{"other eps", []Part{parts[0], otherEps, parts[2]}, []string{"other-eps.pq", "decision threshold (ε ≤ 0.5 vs ε ≤ 0.3"}},
		{"other n", []Part{parts[0], otherN, parts[2]}, []string{"other-n.pq", "shard count"}},
	}
	for _, tc := range tests {
		_, err := MergeClasses(tc.parts)
		if err == nil {
			t.Errorf("%s: merged", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.name, err, w)
			}
		}
	}
	// Parts of samples drawn with other seeds do not merge.
	sampled := func(seed uint64, i int) Part {
		fam, _ := fsc.New(fsc.KindStochasticClock, 3, 2, 2, 3, fsc.Options{Samples: 10, Seed: seed, Indexed: true})
		f, err := (&Run{Model: b.Model, Ground: b.Ground, Family: fam, T: 3, Count: 2, Index: i}).Classes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return Part{Name: fmt.Sprintf("seed%d-%d.pq", seed, i), File: f}
	}
	if _, err := MergeClasses([]Part{sampled(1, 0), sampled(2, 1)}); err == nil || !strings.Contains(err.Error(), "seed of the sampled family (1 vs 2)") {
		t.Errorf("parts of two seeds: %v", err)
	}
	if _, err := MergeClasses([]Part{sampled(1, 0), sampled(1, 1)}); err != nil {
		t.Errorf("parts of one seed: %v", err)
	}
	// A sampled family not drawn by index cannot be split.
	seq, _ := fsc.New(fsc.KindStochasticClock, 3, 2, 2, 3, fsc.Options{Samples: 10})
	if _, err := (&Run{Model: b.Model, Ground: b.Ground, Family: seq, T: 3, Count: 2}).Classes(context.Background()); err == nil || !strings.Contains(err.Error(), "Indexed") {
		t.Errorf("sequentially sampled family: %v", err)
	}
	if miss, err := Missing([]Part{parts[2]}); err != nil || Ranges(miss) != "0-1" {
		t.Errorf("Missing = %v, %v; want 0-1", miss, err)
	}

	// Truncated and corrupt files are refused by name.
	full, _ := os.ReadFile(parts[0].Name)
	for _, cut := range []int{0, 5, len(Magic) + 3, len(full) / 2, len(full) - 1} {
		_, err := Decode("cut.pq", full[:cut])
		if err == nil || !strings.Contains(err.Error(), "cut.pq") || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("truncated to %d bytes: %v", cut, err)
		}
	}
	flip := slices.Clone(full)
	flip[len(flip)/2] ^= 1
	if _, err := Decode("flip.pq", flip); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("corrupt byte: %v", err)
	}
	if _, err := Decode("x.txt", []byte("hello world, not a shard file at all........................")); err == nil || !strings.Contains(err.Error(), "not a pomdpq shard file") {
		t.Errorf("foreign file: %v", err)
	}
	// A write that fails before its rename leaves no file under the name.
	if err := Write(filepath.Join(dir, "no-such-dir", "p.pq"), parts[0].File); err == nil {
		t.Error("write into a missing directory succeeded")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestRoundTrip checks Encode/Decode on every kind of file.
func TestRoundTrip(t *testing.T) {
	r, _ := runCase{model: "tiger", kind: fsc.KindClock, m: 2, T: 2, opt: distance.Options{Eps: []float64{0.5}}}.run(t)
	r.Count = 2
	dir := t.TempDir()
	res := sharded(t, dir, r, 2, rand.New(rand.NewPCG(3, 4)))
	if res.Classes.Total() == 0 {
		t.Fatal("no classes")
	}
	for _, p := range readParts(t, dir, "*.pq") {
		b := p.Encode()
		g, err := Decode(p.Name, b)
		if err != nil {
			t.Fatal(err)
		}
		if g.Sum != p.Sum || string(g.Encode()) != string(b) {
			t.Fatalf("%s: round trip changed the file", p.Name)
		}
	}
	// A negative zero distance is written as +0, the encoding Decode accepts.
	_, _, d := sampleFiles(t)
	d.ClassD[1].Data[0] = math.Copysign(0, -1)
	g, err := Decode("negzero.pq", d.Encode())
	if err != nil || math.Signbit(g.ClassD[1].Data[0]) {
		t.Errorf("-0 distance: Decode = %v; read back %v", err, g)
	}
}

// FuzzDecode feeds arbitrary bytes (seeded with real files and their
// mutations) to Decode: it must return a file that re-encodes to the same
// bytes, or an error, never panic.
func FuzzDecode(f *testing.F) {
	cl, plan, d := sampleFiles(f)
	f.Add(cl.Encode())
	f.Add(plan.Encode())
	f.Add(d.Encode())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As given (the checksum stops most mutations), and with the
		// checksum recomputed so that the parser sees them.
		resummed := data
		if len(data) >= sha256.Size {
			body := data[:len(data)-sha256.Size]
			sum := sha256.Sum256(body)
			resummed = append(slices.Clone(body), sum[:]...)
		}
		for _, b := range [][]byte{data, resummed} {
			g, err := Decode("fuzz.pq", b)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.pq: ") {
					t.Fatalf("error does not name the file: %v", err)
				}
				continue
			}
			if string(g.Encode()) != string(b) {
				t.Fatal("decoded file re-encodes differently")
			}
		}
	})
}

// sampleFiles returns a file of each kind: shard 0 of 2's classes part,
// the plan of both, and shard 0's distances part (tiger, the stationary
// family m = 2, T = 2, exact distances).
func sampleFiles(tb testing.TB) (cl, plan, d *File) {
	b, _ := bench.Lookup("tiger")
	fam, _ := fsc.New(fsc.KindStationary, 3, 2, 2, 0, fsc.Options{})
	r := Run{Model: b.Model, Ground: b.Ground, Family: fam, T: 2, Options: distance.Options{Ground: b.Ground}, Count: 2}
	ctx := context.Background()
	var parts []Part
	for i := range r.Count {
		r.Index = i
		c, err := r.Classes(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		parts = append(parts, Part{Name: fmt.Sprint(i), File: c})
	}
	plan, err := MergeClasses(parts)
	if err != nil {
		tb.Fatal(err)
	}
	plan.Encode() // sets plan.Sum, which the distances part names
	r.Index = 0
	d, err = r.Distances(ctx, &Part{Name: "plan", File: plan}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return parts[0].File, plan, d
}

// TestDecodeRefusesNonCanonical: a file whose checksum holds but one of
// whose fields is not as Encode writes it (a number in a longer encoding
// than its shortest, a kind that only fits after truncation to a byte, a
// negative zero, a value the writer never produces) is refused, and the
// error names the field. Each file is built by Encode from a sample file
// with the field set to a marker value, whose bytes are then replaced and
// the checksum recomputed.
func TestDecodeRefusesNonCanonical(t *testing.T) {
	const marker = 123456789 // a number whose encoding occurs once in the files
	fmark := math.Float64frombits(0x3ff123456789abcd)
	negZero := math.Float64bits(math.Copysign(0, -1))
	uv := func(v uint64) []byte { return binary.AppendUvarint(nil, v) }
	long := func(v uint64) []byte { // v's uvarint with one needless extra byte
		b := uv(v)
		b[len(b)-1] |= 0x80
		return append(b, 0)
	}
	fl := func(bits uint64) []byte { return binary.LittleEndian.AppendUint64(nil, bits) }
	kindAt := len(Magic) + 1 // after the one-byte version
	tests := []struct {
		name     string
		kind     Kind
		set      func(f *File)
		old, new []byte // replace old (nil: the byte at kindAt) by new
		want     string
	}{
		{"kind past a byte (fuzz cd260376ecf7d7a4)", KindPlan, nil, nil, []byte{0x82, 0x02}, "field kind: 258 is not a kind"},
		{"kind in two bytes", KindPlan, nil, nil, []byte{0x82, 0x00}, "field kind: number not in its shortest encoding"},
		{"kind over 64 bits", KindPlan, nil, nil, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "field kind: number overflows 64 bits"},
		{"m in a long encoding", KindPlan, func(f *File) { f.M = marker }, uv(marker), long(marker), "field m: number not in its shortest encoding"},
		{"family size in a long encoding", KindPlan, func(f *File) { f.FamilySize = marker }, uv(marker), long(marker), "field family size: number not"},
		{"stand-ins in a long encoding", KindDistances, func(f *File) { f.StandIns = marker }, uv(marker), long(marker), "field stand-ins: number not"},
		// A probe is a zigzag varint: probe v > 0 is written as uvarint 2v.
		{"probe in a long encoding", KindClasses, func(f *File) { f.FamilySize, f.Probes = 3*marker, []int64{marker} },
			uv(2 * marker), long(2 * marker), "field probes: number not"},
		{"negative zero threshold", KindPlan, func(f *File) { f.Cap = fmark }, fl(math.Float64bits(fmark)), fl(negZero), "field decision threshold: -0"},
		{"negative zero distance", KindDistances, func(f *File) { f.ClassD[1].Data[0] = fmark }, fl(math.Float64bits(fmark)), fl(negZero), "field distances of depth 1: entry 0 is -0"},
		{"seed of an enumerated family", KindClasses, func(f *File) { f.Seed = 7 }, nil, nil, "field seed: 7 for the enumerated stationary family"},
		{"plan checksum in a classes part", KindClasses, func(f *File) { f.Plan[0] = 1 }, nil, nil, "field plan checksum: 01000000… in a classes part"},
		{"plan checksum in a plan", KindPlan, func(f *File) { f.Plan[31] = 1 }, nil, nil, "field plan checksum"},
		{"more shards than controllers", KindPlan, func(f *File) { f.Count = int(f.FamilySize) + 1 }, nil, nil, "field shard count: shard 0 of"},
		{"no storage below depth T", KindDistances, func(f *File) { f.ClassD[1].Data = nil }, nil, nil, "field distances of depth 1: 0 entries for 2 classes (want 1)"},
		{"storage at depth T", KindDistances, func(f *File) { f.ClassD[2].Data = []float64{0} }, nil, nil, "field distances of depth 2: 1 entries for 1 classes (want 0)"},
		{"depth T of another size", KindDistances, func(f *File) { f.ClassD[2].N = 5 }, nil, nil, "distances of depth 2: a 5-class matrix for 1 classes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, plan, d := sampleFiles(t)
			f := map[Kind]*File{KindClasses: cl, KindPlan: plan, KindDistances: d}[tc.kind]
			if tc.set != nil {
				tc.set(f)
			}
			b := f.Encode()
			body := slices.Clone(b[:len(b)-sha256.Size])
			switch {
			case tc.new == nil:
			case tc.old == nil:
				body = slices.Concat(body[:kindAt], tc.new, body[kindAt+1:])
			default:
				if n := bytes.Count(body, tc.old); n != 1 {
					t.Fatalf("marker bytes %x occur %d times", tc.old, n)
				}
				body = bytes.Replace(body, tc.old, tc.new, 1)
			}
			sum := sha256.Sum256(body)
			_, err := Decode("x.pq", append(body, sum[:]...))
			if err == nil || !strings.HasPrefix(err.Error(), "x.pq: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode = %v; want an error naming x.pq with %q", err, tc.want)
			}
		})
	}
}

// TestKilledShard: a shard cancelled midway (as a killed job) writes
// nothing, Missing names it, and rerunning it alone completes a merge
// equal to Compute. A temporary file left by a write killed before its
// rename does not match the parts' names.
func TestKilledShard(t *testing.T) {
	r, single := runCase{model: "tiger", kind: fsc.KindClock, m: 2, T: 3, opt: distance.Options{}}.run(t)
	dir := t.TempDir()
	ctx := context.Background()
	r.Count = 3
	plan := func() *Part {
		var parts []Part
		for i := 0; i < 3; i++ {
			r.Index = i
			f, err := r.Classes(ctx)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, Part{Name: fmt.Sprint(i), File: f})
		}
		p, err := MergeClasses(parts)
		if err != nil {
			t.Fatal(err)
		}
		return &Part{Name: "plan", File: p}
	}()
	save := func(i int, c context.Context) error {
		r.Index = i
		f, err := r.Distances(c, plan, nil)
		if err != nil {
			return err
		}
		return Write(filepath.Join(dir, fmt.Sprintf("dist-%d.pq", i)), f)
	}
	for _, i := range []int{0, 2} {
		if err := save(i, ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Shard 1 is "killed" at its first progress report.
	kctx, kill := context.WithCancel(ctx)
	r.Options.Progress = func(done, total int) { kill() }
	if err := save(1, kctx); err == nil {
		t.Fatal("a cancelled shard succeeded")
	}
	r.Options.Progress = nil
	os.WriteFile(filepath.Join(dir, ".dist-1.pq.tmp-123"), []byte(Magic+"half a file"), 0o644)
	parts := readParts(t, dir, "dist-*.pq")
	if miss, err := Missing(parts); err != nil || Ranges(miss) != "1" {
		t.Fatalf("Missing = %v, %v; want shard 1", miss, err)
	}
	if _, err := MergeDistances(parts); err == nil || !strings.Contains(err.Error(), "shards 1 ") {
		t.Fatalf("merge without shard 1: %v", err)
	}
	if err := save(1, ctx); err != nil {
		t.Fatal(err)
	}
	got, err := MergeDistances(readParts(t, dir, "dist-*.pq"))
	if err != nil {
		t.Fatal(err)
	}
	if got.MaxDistance() != single.MaxDistance() || !got.Partition(0.3).Equal(single.Partition(0.3)) {
		t.Fatalf("after the rerun: max %v, Compute %v", got.MaxDistance(), single.MaxDistance())
	}
}

// TestShardRange: the ranges of n shards cover [0, size) in order, without
// gaps or overlaps, sizes differing by at most one, also for sizes whose
// products with n overflow 64 bits.
func TestShardRange(t *testing.T) {
	for _, tc := range []struct{ size, n int }{
		{1, 1}, {10, 3}, {147, 7}, {26873856, 1000}, {3869835264, 1000}, {1 << 62, 1024}, {1<<63 - 1, 7},
	} {
		prev, lo0, hi0 := 0, -1, -1
		for i := 0; i < tc.n; i++ {
			lo, hi := distance.ShardRange(tc.size, i, tc.n)
			if lo != prev || hi < lo {
				t.Fatalf("size %d, shard %d/%d: [%d, %d) after %d", tc.size, i, tc.n, lo, hi, prev)
			}
			if lo0 < 0 {
				lo0, hi0 = lo, hi
			}
			if d := (hi - lo) - (hi0 - lo0); d < -1 || d > 1 {
				t.Fatalf("size %d, shard %d/%d: %d controllers, shard 0 %d", tc.size, i, tc.n, hi-lo, hi0-lo0)
			}
			prev = hi
		}
		if prev != tc.size {
			t.Fatalf("size %d in %d shards: the ranges end at %d", tc.size, tc.n, prev)
		}
	}
}
