package nb

import (
	"encoding/gob"
	"os"
	"path/filepath"
)

// Cached returns compute()'s result, computed once and kept in dir under
// key (as dir/key.gob, gob-encoded), so that the cells of one notebook run
// share an expensive result: GoNB keeps declarations between cells, not
// values. The cache is best effort: a file that is missing or does not
// decode into a V is recomputed, and a directory that cannot be written
// only means the next call computes again. V's exported fields are what
// is kept (gob's rules); a notebook that empties dir at its start never
// reads a result of an earlier run.
func Cached[V any](dir, key string, compute func() V) V {
	path := filepath.Join(dir, key+".gob")
	var v V
	if f, err := os.Open(path); err == nil {
		err := gob.NewDecoder(f).Decode(&v)
		f.Close()
		if err == nil {
			return v
		}
	}
	v = compute()
	if os.MkdirAll(dir, 0o700) == nil {
		if f, err := os.Create(path); err == nil {
			_ = gob.NewEncoder(f).Encode(v)
			f.Close()
		}
	}
	return v
}
