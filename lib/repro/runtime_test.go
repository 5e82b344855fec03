package repro

import (
	"strconv"
	"testing"
)

// TestRuntimeHorizon: the runtime-horizon table (fig:runtime-horizon)
// measures every point of the paper's four tracks and shows the paper's
// time beside ours; its deterministic columns reproduce the printed ones
// of the tables the figure draws from (paper, tab:hierarchical-scaling
// "histories processed", tab:principal-horizon "classes").
func TestRuntimeHorizon(t *testing.T) {
	paper, err := PaperRuntimes()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range paper {
		n += len(m)
	}
	if n != 14 {
		t.Fatalf("%d paper runtimes, want 14 (8 hierarchical-scaling + 6 principal-horizon)", n)
	}
	tab := buildTable(t, &Env{}, "runtime-horizon")
	want := map[string]map[int][2]int{ // track → T → {histories, classes}, -1: not checked
		TrackLayered: {4: {31, -1}, 6: {38, -1}, 8: {62, -1}, 10: {126, -1}},
		TrackFull:    {4: {31, 10}, 5: {63, 16}, 6: {127, 30}, 7: {255, 50}},
		TrackSubset:  {7: {255, 50}, 8: {511, 77}},
		TrackDirect:  {4: {31, -1}, 6: {127, -1}, 8: {511, -1}, 10: {2047, -1}},
	}
	seen := 0
	for i := range tab.Rows {
		track := cell(t, tab, i, "track")
		T, err := strconv.Atoi(cell(t, tab, i, "horizon"))
		if err != nil {
			t.Fatal(err)
		}
		secs, err := strconv.ParseFloat(cell(t, tab, i, "seconds"), 64)
		if err != nil || !(secs > 0) {
			t.Errorf("%s T=%d: seconds %q", track, T, cell(t, tab, i, "seconds"))
		}
		ps := cell(t, tab, i, "paper_seconds")
		if v, ok := paper[track][T]; ok {
			seen++
			if got, err := strconv.ParseFloat(ps, 64); err != nil || got != v {
				t.Errorf("%s T=%d: paper_seconds %q, want %v", track, T, ps, v)
			}
		} else if ps != "" {
			t.Errorf("%s T=%d: paper_seconds %q where the paper prints none", track, T, ps)
		}
		if w, ok := want[track][T]; ok {
			if h := cell(t, tab, i, "histories"); h != strconv.Itoa(w[0]) {
				t.Errorf("%s T=%d: histories %s, want %d", track, T, h, w[0])
			}
			if c := cell(t, tab, i, "classes"); w[1] >= 0 && c != strconv.Itoa(w[1]) {
				t.Errorf("%s T=%d: classes %s, want %d", track, T, c, w[1])
			}
		}
	}
	if seen != n {
		t.Errorf("%d of the paper's %d points measured", seen, n)
	}
}
