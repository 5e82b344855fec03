package witness

import (
	"context"
	"testing"
)

// BenchmarkSearch times a small search (every criterion, |S| ≤ 2, T ≤ 3,
// halves) and reports the (model, horizon) pairs tested per second.
func BenchmarkSearch(b *testing.B) {
	b.ReportAllocs()
	var tested int64
	for b.Loop() {
		rep, err := Search(context.Background(), Options{MaxStates: 2, MaxT: 3, Grids: []Grid{{2, 2}}})
		if err != nil {
			b.Fatal(err)
		}
		tested += rep.Tested
	}
	b.ReportMetric(float64(tested)/b.Elapsed().Seconds(), "tests/s")
}

// BenchmarkCertify times the oracle on the paper's 9-state witness at T = 3.
func BenchmarkCertify(b *testing.B) {
	m := handModelsB(b)["witness"]
	w, err := Check(context.Background(), ClkFree, m, 3)
	if err != nil || w == nil {
		b.Fatal(w, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Certify(); err != nil {
			b.Fatal(err)
		}
	}
}
