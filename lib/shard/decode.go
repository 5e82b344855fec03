package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
)

// maxT bounds the horizon a file may claim.
const maxT = 64

// Decode parses the bytes of a shard file; name is used in errors.
//
// Decode accepts only the bytes that Encode writes: every field must hold
// its one canonical encoding (numbers in their shortest varint, no negative
// zero, labels canonical) and a value the writer can produce (a known kind,
// a horizon in [1, 64], shard i of n with i < n ≤ the family size, no seed
// for an enumerated family, a plan checksum only in a distances part, a
// matrix per depth of the size its classes give). A refused field is named
// in the error, so a decoded file re-encodes to the same bytes.
func Decode(name string, b []byte) (*File, error) {
	bad := func(format string, args ...any) error {
		return &FormatError{Name: name, Reason: fmt.Sprintf(format, args...)}
	}
	if !bytes.HasPrefix(b, []byte(Magic)) {
		if len(b) < len(Magic) && bytes.HasPrefix([]byte(Magic), b) {
			return nil, bad("truncated (%d bytes; not a complete shard file): rerun its shard", len(b))
		}
		return nil, bad("not a pomdpq shard file (no %q header)", Magic[:len(Magic)-1])
	}
	if len(b) < len(Magic)+2+sha256.Size {
		return nil, bad("truncated (%d bytes; not a complete shard file): rerun its shard", len(b))
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	d := dec{b: body[len(Magic):]}
	if v := d.u("version"); d.err == nil && v != Version {
		return nil, bad("format version %d, this pomdpq reads version %d", v, Version)
	}
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, bad("checksum mismatch: the file is truncated or corrupt; rerun its shard")
	}
	f := &File{}
	copy(f.Sum[:], sum)
	d.header(&f.Header)
	f.SliceSize = int64(d.int("slice size"))
	f.Distinct = int64(d.int("distinct"))
	f.StandIns = int64(d.int("stand-ins"))
	d.labels(f)
	d.probes(f)
	d.distances(f)
	if d.err == nil && len(d.b) != 0 {
		d.fail("end", "%d bytes after the data", len(d.b))
	}
	if d.err != nil {
		return nil, bad("%v (the checksum holds: written by another build of pomdpq?)", d.err)
	}
	if err := f.check(); err != nil {
		return nil, bad("%v", err)
	}
	return f, nil
}

// header reads the fields of h after the version, in Encode's order, and
// refuses values that Encode does not write.
func (d *dec) header(h *Header) {
	if k := d.u("kind"); d.err == nil && (k < uint64(KindClasses) || k > uint64(KindDistances)) {
		d.fail("kind", "%d is not a kind of file (%d, %d or %d)", k, KindClasses, KindPlan, KindDistances)
	} else {
		h.Kind = Kind(k)
	}
	d.bytes("model hash", h.ModelHash[:])
	h.Model = d.s("model")
	h.Family = d.s("family")
	h.M = d.int("m")
	if h.T = d.int("T"); d.err == nil && (h.T < 1 || h.T > maxT) {
		d.fail("T", "horizon %d outside [1, %d]", h.T, maxT)
	}
	h.FamilySize = int64(d.int("family size"))
	if h.Seed = d.u("seed"); d.err == nil && h.Seed != 0 && enumerated(h.Family) {
		d.fail("seed", "%d for the enumerated %s family (which has no seed)", h.Seed, h.Family)
	}
	h.Metric = d.s("metric")
	h.Convention = d.s("convention")
	if h.Cap = d.f("decision threshold"); d.err == nil && (math.IsNaN(h.Cap) || math.Signbit(h.Cap)) {
		d.fail("decision threshold", "%g (want +0 or more)", h.Cap)
	}
	h.Index = d.int("shard index")
	if h.Count = d.int("shard count"); d.err == nil && (h.Index >= h.Count || int64(h.Count) > h.FamilySize) {
		d.fail("shard count", "shard %d of %d for a family of %d (want i < n ≤ the family size)", h.Index, h.Count, h.FamilySize)
	}
	if d.bytes("plan checksum", h.Plan[:]); d.err == nil && h.Kind != KindDistances && h.Plan != [32]byte{} {
		d.fail("plan checksum", "%x… in a %s (only a distances part names its plan)", h.Plan[:4], h.Kind)
	}
}

// enumerated reports whether family names a family kind that is
// enumerated, not sampled (and so has no seed).
func enumerated(family string) bool {
	return family == string(fsc.KindStationary) || family == string(fsc.KindClock)
}

// labels reads T+1 depths of canonical labels (each label at most one more
// than the largest before it).
func (d *dec) labels(f *File) {
	if n := d.count("labels", 1); d.err == nil && n != f.T+1 {
		d.fail("labels", "%d depths for T = %d", n, f.T)
	}
	if d.err != nil {
		return
	}
	f.Labels = make([][]int, f.T+1)
	for t := range f.Labels {
		field := fmt.Sprintf("labels of depth %d", t)
		n := d.count(field, 1)
		l := make([]int, 0, n)
		next := 0
		for k := 0; k < n && d.err == nil; k++ {
			x := d.int(field)
			if x > next {
				d.fail(field, "label %d before label %d (labels must be canonical)", x, next)
			}
			if x == next {
				next++
			}
			l = append(l, x)
		}
		f.Labels[t] = l
	}
}

// probes reads the probes, each as its difference from the one before.
func (d *dec) probes(f *File) {
	np := d.count("probes", 1)
	prev := int64(0)
	for k := 0; k < np && d.err == nil; k++ {
		prev += d.i("probes")
		if prev < 0 || prev >= f.FamilySize {
			d.fail("probes", "probe %d outside the family of %d", prev, f.FamilySize)
		}
		f.Probes = append(f.Probes, prev)
	}
}

// distances reads none or T+1 matrices: depth t < T holds N(N-1)/2
// distances (finite, ≥ 0, never -0) over its N classes; depth T has no
// storage.
func (d *dec) distances(f *File) {
	nd := d.count("distances", 1)
	if d.err == nil && nd != 0 && nd != f.T+1 {
		d.fail("distances", "%d matrices for T = %d", nd, f.T)
	}
	for t := 0; t < nd && d.err == nil; t++ {
		field := fmt.Sprintf("distances of depth %d", t)
		n := d.int(field)
		k := d.count(field, 8)
		want := int64(n) * int64(n-1) / 2
		if t == f.T {
			want = 0
		}
		if d.err == nil && int64(k) != want {
			d.fail(field, "%d entries for %d classes (want %d)", k, n, want)
		}
		m := partition.Matrix{N: n}
		if k > 0 && d.err == nil {
			m.Data = make([]float64, k)
			for j := range m.Data {
				v := d.f(field)
				if d.err == nil && (!(v >= 0) || math.IsInf(v, 1) || math.Signbit(v)) {
					d.fail(field, "entry %d is %g (want finite, ≥ +0)", j, v)
				}
				m.Data[j] = v
			}
		} else if t < f.T {
			m.Data = []float64{}
		}
		f.ClassD = append(f.ClassD, m)
	}
}

// check verifies what each kind must hold.
func (f *File) check() error {
	switch f.Kind {
	case KindClasses:
		if len(f.ClassD) != 0 || len(f.Probes) == 0 {
			return fmt.Errorf("a classes part needs probes and no distances")
		}
	case KindPlan:
		if len(f.ClassD) != 0 || len(f.Probes) != 0 {
			return fmt.Errorf("a plan holds neither probes nor distances")
		}
	case KindDistances:
		if len(f.ClassD) != f.T+1 {
			return fmt.Errorf("a distances part needs %d matrices", f.T+1)
		}
		for t, m := range f.ClassD {
			if c := classes(f.Labels[t]); m.N != c {
				return fmt.Errorf("distances of depth %d: a %d-class matrix for %d classes", t, m.N, c)
			}
		}
	}
	return nil
}

func classes(l []int) int {
	c := 0
	for _, x := range l {
		c = max(c, x+1)
	}
	return c
}

// dec reads the fields of a file; the first error, naming its field, stops
// every later read.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("field %s: %s", field, fmt.Sprintf(format, args...))
	}
}

// varint checks the result n of binary.(U)varint for a number whose
// shortest encoding takes short bytes, and consumes it.
func (d *dec) varint(field string, n, short int) bool {
	switch {
	case n == 0:
		d.fail(field, "truncated")
	case n < 0:
		d.fail(field, "number overflows 64 bits")
	case n != short:
		d.fail(field, "number not in its shortest encoding (%d bytes for %d)", n, short)
	default:
		d.b = d.b[n:]
		return true
	}
	return false
}

func (d *dec) u(field string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	var buf [binary.MaxVarintLen64]byte
	if !d.varint(field, n, len(binary.AppendUvarint(buf[:0], v))) {
		return 0
	}
	return v
}

func (d *dec) i(field string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	var buf [binary.MaxVarintLen64]byte
	if !d.varint(field, n, len(binary.AppendVarint(buf[:0], v))) {
		return 0
	}
	return v
}

// maxInt bounds the numbers read as int (2⁶²−2³¹, below math.MaxInt64 with
// room for sums).
const maxInt = math.MaxInt32 * uint64(1<<31)

// int reads a non-negative number that fits an int.
func (d *dec) int(field string) int {
	v := d.u(field)
	if v > maxInt || v > math.MaxInt {
		d.fail(field, "number %d out of range", v)
		return 0
	}
	return int(v)
}

// count reads a length whose items take at least size bytes each.
func (d *dec) count(field string, size int) int {
	v := d.u(field)
	if d.err == nil && v > uint64(len(d.b)/size) {
		d.fail(field, "length %d exceeds the %d bytes left", v, len(d.b))
		return 0
	}
	return int(v)
}

func (d *dec) s(field string) string {
	n := d.count(field, 1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) bytes(field string, dst []byte) {
	if d.err != nil {
		return
	}
	if len(d.b) < len(dst) {
		d.fail(field, "truncated")
		return
	}
	copy(dst, d.b)
	d.b = d.b[len(dst):]
}

func (d *dec) f(field string) float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail(field, "truncated")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}
