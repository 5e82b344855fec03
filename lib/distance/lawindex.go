package distance

import (
	"hash/maphash"
	"sync"
	"unsafe"
)

// lawIndex remembers, per depth and class representative, which probe of
// a distances pass first met each suffix law. Many probes give a history
// the same law (the law depends only on the belief at the history and on
// the controller's behaviour from there), so a pair of representatives
// often sees under a later probe the very two laws an earlier probe
// already compared: its distance is the same number, and the later probe
// skips the pair (see pairWorker.accumulate). On Tiger m ≤ 2, T = 12,
// about three quarters of the (pair, probe) evaluations are such
// repeats.
//
// Up to maxSetProbes probes it also keeps, per law, the set of probes
// that registered it so far: a probe then skips every
// pair whose two laws one earlier-registered probe met together, not only
// those whose laws the same probe met first (on Tiger m ≤ 2, T = 16, 186
// million of the last depth's 214 million evaluations against 158
// million). The earlier probe settles the pair, or skips it for an even
// earlier one: the registrations of one depth are ordered by its lock.
//
// Laws are keyed by a 128-bit hash of their bits (two independent
// maphash seeds): equal laws always share a key; two different laws would
// need a 128-bit collision at the same representative to be confused.
// The index holds at most limit entries; a law met once it is full is
// never skipped (its probe is its own first).
type lawIndex struct {
	seeds [2]maphash.Seed
	mu    []sync.Mutex
	// entry[t] maps a law at depth t to the probe that first met it or,
	// with probe sets (words > 0), to its entry e: the set of probes that
	// met it so far is words words at e·words in the chunks of met[t]
	// (chunks of setChunk entries: no copy as the sets grow).
	entry []map[lawKey]int32
	met   [][][]uint64
	count []int32 // entries per depth, with probe sets
	words int
	limit int64
	n     int64 // entries, under every depth's lock taken in turn
	nMu   sync.Mutex
}

// lawScratch is one caller's memory for lawIndex.canon.
type lawScratch struct {
	ids  []int32
	keys []lawKey
	// met[a·words:(a+1)·words]: the probes that met representative a's
	// law before this one (with lawIndex.words > 0).
	met []uint64
}

// lawKey is a law's 128-bit hash with the representative folded into
// its first half (two entries collide only if both halves do).
type lawKey struct {
	h0, h1 uint64
}

// lawIndexBytes is the memory of one entry of a lawIndex without probe
// sets: the key and value (24 bytes a slot) with the map's load factor
// and the old table kept while it grows.
const lawIndexBytes = 56

// lawIndexEntryBytes is the memory of one entry of a lawIndex over the
// given number of probes: lawIndexBytes and, up to maxSetProbes probes,
// the set of probes that met the law (a bit per probe).
func lawIndexEntryBytes(probes int) int64 {
	return lawIndexBytes + 8*int64(setWords(probes))
}

// setChunk is the number of probe sets of one chunk of lawIndex.met.
const setChunk = 4096

// maxSetProbes is the largest number of probes whose law index keeps, per
// law, the set of probes that met it (a bit per probe and entry).
const maxSetProbes = 256

// setWords returns the words of a probe set over the given number of
// probes: 0 (no sets) above maxSetProbes.
func setWords(probes int) int {
	if probes > maxSetProbes {
		return 0
	}
	return (probes + 63) / 64
}

// lawIndexLimitBytes bounds the memory of a lawIndex: 256 MiB, Tiger
// m ≤ 2 at T = 18 (15,528 representatives, 75 probes) in full.
const lawIndexLimitBytes = 256 << 20

// lawIndexLimit returns the most entries a lawIndex over the given number
// of probes holds: lawIndexLimitBytes of entries, and at most a quarter of
// a memory budget (Options.MemBudget, when positive): under a tight
// budget the index skips fewer repeats rather than refuse the run.
func lawIndexLimit(probes int, budget int64) int64 {
	b := int64(lawIndexLimitBytes)
	if budget > 0 {
		b = min(b, budget/4)
	}
	return b / lawIndexEntryBytes(probes)
}

// newLawIndex returns an empty index over the given depths for a pass of
// the given number of probes (numbered 0 … probes − 1), holding at most
// limit entries.
func newLawIndex(depths, probes int, limit int64) *lawIndex {
	x := &lawIndex{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, mu: make([]sync.Mutex, depths),
		entry: make([]map[lawKey]int32, depths), met: make([][][]uint64, depths), count: make([]int32, depths), limit: limit}
	if !noProbeSets {
		x.words = setWords(probes)
	}
	for t := range x.entry {
		x.entry[t] = make(map[lawKey]int32)
	}
	return x
}

// canon registers the laws of probe at depth t (representatives rt, L
// atoms each in data) that are new. Without probe sets it returns ids,
// ids[a] the first probe of this pass that met the law of representative
// a; with probe sets (words > 0) it returns nil and leaves in s.met, per
// representative, the probes that registered its law before this call:
// two representatives whose sets meet had both laws under a probe
// registered earlier (metBefore). A law met once the index is full is
// never registered: it is its probe's own.
func (x *lawIndex) canon(s *lawScratch, probe int, t int, data []float64, rt []int, L int) []int32 {
	if cap(s.ids) < len(rt) {
		s.ids = make([]int32, len(rt))
		s.keys = make([]lawKey, len(rt))
	}
	ids, keys := s.ids[:len(rt)], s.keys[:len(rt)]
	w := x.words
	if cap(s.met) < len(rt)*w {
		s.met = make([]uint64, len(rt)*w)
	}
	s.met = s.met[:len(rt)*w]
	for a, i := range rt {
		p := data[i*L : (i+1)*L]
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p))), 8*len(p))
		keys[a] = lawKey{h0: maphash.Bytes(x.seeds[0], b) ^ (uint64(a)+1)*0x9e3779b97f4a7c15, h1: maphash.Bytes(x.seeds[1], b)}
	}
	x.mu[t].Lock()
	m := x.entry[t]
	added := int64(0)
	full := x.full()
	for a, key := range keys {
		v, ok := m[key]
		if !ok && !full {
			v, ok = int32(probe), true
			if w > 0 {
				v = x.count[t]
				x.count[t]++
				if int(v)%setChunk == 0 {
					x.met[t] = append(x.met[t], make([]uint64, setChunk*w))
				}
			}
			m[key] = v
			added++
		}
		if w == 0 {
			ids[a] = int32(probe) // not registered: the probe's own
			if ok {
				ids[a] = v
			}
			continue
		}
		dst := s.met[a*w : (a+1)*w]
		if !ok {
			clear(dst)
			continue
		}
		chunk, off := int(v)/setChunk, int(v)%setChunk*w
		set := x.met[t][chunk][off : off+w]
		copy(dst, set)
		set[probe/64] |= 1 << (probe % 64)
	}
	x.mu[t].Unlock()
	x.nMu.Lock()
	x.n += added
	x.nMu.Unlock()
	if w > 0 {
		return nil
	}
	return ids
}

// metBefore reports whether the probe sets of canon's representatives a
// and b meet: a probe registered before the caller's had the same laws
// at both.
func (s *lawScratch) metBefore(a, b, w int) bool {
	ma, mb := s.met[a*w:(a+1)*w], s.met[b*w:(b+1)*w]
	for i, v := range ma {
		if v&mb[i] != 0 {
			return true
		}
	}
	return false
}

// full reports whether the index holds its limit of entries (a depth may
// overshoot it by one probe's representatives).
func (x *lawIndex) full() bool {
	x.nMu.Lock()
	defer x.nMu.Unlock()
	return x.n >= x.limit
}
