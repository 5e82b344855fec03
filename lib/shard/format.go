package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
)

// Magic starts every shard file; Version is the format version written.
const (
	Magic   = "POMDPQ-SHARD\n"
	Version = 1
)

// Kind is what a file holds.
type Kind uint8

// The kinds of file.
const (
	KindClasses   Kind = 1 // round 1: a slice's exact classes and probes
	KindPlan      Kind = 2 // the merged exact partition
	KindDistances Kind = 3 // round 2: a slice's maxima over the plan's representatives
)

func (k Kind) String() string {
	switch k {
	case KindClasses:
		return "classes part"
	case KindPlan:
		return "plan"
	case KindDistances:
		return "distances part"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Header identifies the run a file belongs to. Two parts merge only when
// their headers agree on everything but Index.
type Header struct {
	Kind Kind
	// ModelHash is ModelHash of the model and ground metric; Model its name.
	ModelHash [32]byte
	Model     string
	// Family is the family kind, M its memory bound, T the horizon and
	// FamilySize the size of the whole family.
	Family     string
	M, T       int
	FamilySize int64
	// Seed is the seed of a sampled family (drawn with fsc.Options.Indexed);
	// 0 for enumerated families.
	Seed       uint64
	Metric     string
	Convention string
	// Cap is the decision threshold of the distances (+Inf: exact
	// distances), for distances parts and plans alike.
	Cap float64
	// Index and Count: shard Index of Count (a plan: 0 of Count).
	Index, Count int
	// Plan is the checksum of the plan a distances part was computed
	// against (zero otherwise).
	Plan [32]byte
}

// Same reports the first field on which h and o differ ("" when they
// describe the same run; Kind and Index are not compared).
func (h *Header) Same(o *Header) string {
	switch {
	case h.ModelHash != o.ModelHash:
		return fmt.Sprintf("model or ground metric (%s vs %s: other numbers, or another ground metric, under the same name)", h.Model, o.Model)
	case h.Family != o.Family:
		return fmt.Sprintf("family (%s vs %s)", h.Family, o.Family)
	case h.M != o.M:
		return fmt.Sprintf("m (%d vs %d)", h.M, o.M)
	case h.T != o.T:
		return fmt.Sprintf("T (%d vs %d)", h.T, o.T)
	case h.FamilySize != o.FamilySize:
		return fmt.Sprintf("family size (%d vs %d)", h.FamilySize, o.FamilySize)
	case h.Seed != o.Seed:
		return fmt.Sprintf("seed of the sampled family (%d vs %d)", h.Seed, o.Seed)
	case h.Metric != o.Metric:
		return fmt.Sprintf("metric (%s vs %s)", h.Metric, o.Metric)
	case h.Convention != o.Convention:
		return fmt.Sprintf("convention (%s vs %s)", h.Convention, o.Convention)
	case math.Float64bits(h.Cap) != math.Float64bits(o.Cap):
		return fmt.Sprintf("decision threshold (%s vs %s: give the same --eps, or --exact-distances to both)", threshold(h.Cap), threshold(o.Cap))
	case h.Count != o.Count:
		return fmt.Sprintf("shard count (%d vs %d)", h.Count, o.Count)
	case h.Plan != o.Plan:
		return fmt.Sprintf("plan (%x… vs %x…)", h.Plan[:4], o.Plan[:4])
	}
	return ""
}

// threshold describes a decision threshold Cap as the largest ε it
// decides (Cap is max ε + partition.ZeroTol).
func threshold(c float64) string {
	if math.IsInf(c, 1) {
		return "exact distances"
	}
	return fmt.Sprintf("ε ≤ %g", c-partition.ZeroTol)
}

// File is one shard file.
type File struct {
	Header
	// Labels is the exact partition (classes parts: the slice's; plans
	// and distances parts: the family's), canonical labels per depth.
	Labels [][]int
	// Probes (classes parts) are the family indices the slice computes.
	Probes []int64
	// ClassD (distances parts) holds, per depth, the maxima over the
	// slice's probes between the plan's class representatives; depth T
	// has no storage.
	ClassD []partition.Matrix
	// SliceSize is the number of controllers of the slice (a plan: of
	// the family), Distinct the number of probes computed and StandIns
	// the stand-in count over the slice.
	SliceSize, Distinct, StandIns int64
	// Sum is the file's checksum (set by Encode and Decode).
	Sum [32]byte
}

// ModelHash returns a SHA-256 of the model (its JSON form, which keeps
// every number exactly) and the ground metric.
func ModelHash(m *pomdp.Model, g ot.Ground) ([32]byte, error) {
	h := sha256.New()
	if err := pomdpjson.Write(h, m); err != nil {
		return [32]byte{}, err
	}
	var b [8]byte
	for _, row := range g {
		for _, v := range row {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out, nil
}

// Encode returns the bytes of f and sets f.Sum.
func (f *File) Encode() []byte {
	var w enc
	w.buf.WriteString(Magic)
	w.u(Version)
	w.u(uint64(f.Kind))
	w.buf.Write(f.ModelHash[:])
	w.s(f.Model)
	w.s(f.Family)
	w.u(uint64(f.M))
	w.u(uint64(f.T))
	w.u(uint64(f.FamilySize))
	w.u(f.Seed)
	w.s(f.Metric)
	w.s(f.Convention)
	w.f(f.Cap)
	w.u(uint64(f.Index))
	w.u(uint64(f.Count))
	w.buf.Write(f.Plan[:])
	w.u(uint64(f.SliceSize))
	w.u(uint64(f.Distinct))
	w.u(uint64(f.StandIns))
	w.u(uint64(len(f.Labels)))
	for _, l := range f.Labels {
		w.u(uint64(len(l)))
		for _, x := range l {
			w.u(uint64(x))
		}
	}
	w.u(uint64(len(f.Probes)))
	prev := int64(0)
	for _, p := range f.Probes {
		w.i(p - prev)
		prev = p
	}
	w.u(uint64(len(f.ClassD)))
	for _, m := range f.ClassD {
		w.u(uint64(m.N))
		w.u(uint64(len(m.Data)))
		for _, v := range m.Data {
			w.f(v)
		}
	}
	f.Sum = sha256.Sum256(w.buf.Bytes())
	w.buf.Write(f.Sum[:])
	return w.buf.Bytes()
}

type enc struct {
	buf bytes.Buffer
	tmp [binary.MaxVarintLen64]byte
}

func (e *enc) u(v uint64) { e.buf.Write(binary.AppendUvarint(e.tmp[:0], v)) }
func (e *enc) i(v int64)  { e.buf.Write(binary.AppendVarint(e.tmp[:0], v)) }
func (e *enc) s(v string) { e.u(uint64(len(v))); e.buf.WriteString(v) }

// f writes v's bits; a zero is written as +0, the one encoding of zero that
// Decode accepts.
func (e *enc) f(v float64) {
	if v == 0 {
		v = 0 // -0 → +0
	}
	e.buf.Write(binary.LittleEndian.AppendUint64(e.tmp[:0], math.Float64bits(v)))
}

// FormatError reports a file that is not a complete shard file of this
// version: truncated, corrupt, or something else.
type FormatError struct {
	Name   string
	Reason string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: %s", e.Name, e.Reason)
}

// Read reads and decodes the shard file at path.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, b)
}

// Write writes f to path atomically: into a temporary file in the same
// directory, synced, then renamed over path. A process killed before the
// rename leaves at most a temporary file named .NAME.tmp-*, never path.
func Write(path string, f *File) error {
	b := f.Encode()
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp's 0600 would hide the part from a merge run as another user
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("shard: writing %s: %w", path, err)
	}
	return nil
}
