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
// Laws are keyed by a 128-bit hash of their bits (two independent
// maphash seeds): equal laws always share a key; two different laws would
// need a 128-bit collision at the same representative to be confused.
// The index holds at most limit entries; a law met once it is full is
// never skipped (its probe is its own first).
type lawIndex struct {
	seeds [2]maphash.Seed
	mu    []sync.Mutex
	first []map[lawKey]int32 // per depth: law → first probe
	limit int64
	n     int64 // entries, under every depth's lock taken in turn
	nMu   sync.Mutex
}

// lawScratch is one caller's memory for lawIndex.canon.
type lawScratch struct {
	ids  []int32
	keys []lawKey
}

// lawKey is a law's 128-bit hash with the representative folded into
// its first half (two entries collide only if both halves do).
type lawKey struct {
	h0, h1 uint64
}

// lawIndexBytes is the memory of one entry of a lawIndex: the key and
// value (24 bytes a slot) with the map's load factor and the old table
// kept while it grows.
const lawIndexBytes = 56

// defaultLawIndexLimit bounds the entries of a lawIndex (64 MiB).
const defaultLawIndexLimit = 1 << 20

func newLawIndex(depths int, limit int64) *lawIndex {
	x := &lawIndex{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, mu: make([]sync.Mutex, depths), first: make([]map[lawKey]int32, depths), limit: limit}
	for t := range x.first {
		x.first[t] = make(map[lawKey]int32)
	}
	return x
}

// canon returns ids with ids[a] the first probe (of this pass) that met
// the law of representative a at depth t, registering probe's laws that
// are new. data holds the depth's laws, L atoms per history.
func (x *lawIndex) canon(s *lawScratch, probe int, t int, data []float64, rt []int, L int) []int32 {
	if cap(s.ids) < len(rt) {
		s.ids = make([]int32, len(rt))
		s.keys = make([]lawKey, len(rt))
	}
	ids, keys := s.ids[:len(rt)], s.keys[:len(rt)]
	for a, i := range rt {
		p := data[i*L : (i+1)*L]
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p))), 8*len(p))
		keys[a] = lawKey{h0: maphash.Bytes(x.seeds[0], b) ^ (uint64(a)+1)*0x9e3779b97f4a7c15, h1: maphash.Bytes(x.seeds[1], b)}
	}
	x.mu[t].Lock()
	m := x.first[t]
	added := int64(0)
	full := x.full()
	for a, key := range keys {
		f, ok := m[key]
		if !ok {
			f = int32(probe)
			if !full {
				m[key] = f
				added++
			}
		}
		ids[a] = f
	}
	x.mu[t].Unlock()
	x.nMu.Lock()
	x.n += added
	x.nMu.Unlock()
	return ids
}

// full reports whether the index holds its limit of entries (a depth may
// overshoot it by one probe's representatives).
func (x *lawIndex) full() bool {
	x.nMu.Lock()
	defer x.nMu.Unlock()
	return x.n >= x.limit
}
