package report

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// TestWhySection: the quotient section of Tiger's report (m = 1, T = 4,
// ε = 0.5) holds one collapsed card per class, whose neighbours have
// cards, and explains the largest split of each depth with the distance
// lib/distance computes between the two classes' first members.
func TestWhySection(t *testing.T) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	r, err := Build(context.Background(), m, "tiger", Options{T: 4, Ms: []int{1}, Eps: 0.5, Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	page, err := r.QuotientHTML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "Why these classes") {
		t.Fatal("no \"Why these classes\" section")
	}
	q := r.Quotient
	if got := strings.Count(page, "<details class=\"class-card\""); got != q.Classes() {
		t.Errorf("%d cards, want one per class (%d)", got, q.Classes())
	}
	for _, l := range regexp.MustCompile(`(?:comes from|goes to): (\d+):(\d+) `).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `id="class-`+l[1]+`-`+l[2]+`"`) {
			t.Errorf("neighbour %s:%s without a card", l[1], l[2])
		}
	}
	if !strings.Contains(page, "steps merged (m") {
		t.Error("no merges of the curve's steps")
	}
	steps := regexp.MustCompile(`<td[^>]*>([0-9.e+-]+) → ([0-9.e+-]+)</td><td[^>]*>[^<]*</td><td[^>]*>([^<]+)</td>`).FindAllStringSubmatch(page, -1)
	if len(steps) == 0 {
		t.Error("no merge rows")
	}
	for _, d := range steps {
		var hi, diam float64
		fmt.Sscan(d[2], &hi)
		fmt.Sscan(d[3], &diam)
		if diam > hi+1e-9 {
			t.Errorf("step %s → %s: diameter %s above the larger ε", d[1], d[2], d[3])
		}
	}
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, 4, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, 4, distance.Options{Ground: b.Ground, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`<td[^>]*>(\d+):(\d+) / \d+:(\d+)</td><td[^>]*>([^<]+)</td>`).FindAllStringSubmatch(page, -1)
	if len(rows) == 0 {
		t.Fatalf("no split explained:\n%s", page)
	}
	for _, row := range rows {
		var d, c1, c2 int
		fmt.Sscan(row[1], &d)
		fmt.Sscan(row[2], &c1)
		fmt.Sscan(row[3], &c2)
		part := q.Partition
		want := res.At(d, part.Members(d, c1)[0], part.Members(d, c2)[0])
		if num(want) != row[4] {
			t.Errorf("split %s:%d / %s:%d: distance %s, lib/distance %s", row[1], c1, row[1], c2, row[4], num(want))
		}
	}
}
