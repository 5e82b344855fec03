package report_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/report"
)

// Build a model's report and write it, with the quotient files beside it.
func ExampleBuild() {
	b, err := bench.Lookup("tiger")
	if err != nil {
		panic(err)
	}
	r, err := report.Build(context.Background(), b.Model, "tiger", report.Options{T: 3, Ground: b.Ground})
	if err != nil {
		panic(err)
	}
	for _, f := range r.Families {
		above := "" // decision mode: the max is known only to exceed the grid's end
		if !f.MaxExact {
			above = "> "
		}
		fmt.Printf("m ≤ %d: %d probes, %d exact classes, max distance %s%.2f\n", f.M, f.Size, f.Exact, above, f.MaxDistance)
	}
	fmt.Printf("quotient: %d classes, soundness gap ≤ %g: %v\n", r.Quotient.Classes(), report.SoundTol, r.Soundness[0].MaxGap <= report.SoundTol)

	dir, err := os.MkdirTemp("", "report")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	files, err := r.Write(filepath.Join(dir, "tiger.html"))
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		if f.Err == "" {
			fmt.Println("wrote", f.Name)
		}
	}
	// Output:
	// m ≤ 1: 3 probes, 7 exact classes, max distance > 0.50
	// m ≤ 2: 147 probes, 8 exact classes, max distance > 0.50
	// quotient: 8 classes, soundness gap ≤ 1e-09: true
	// wrote tiger-quotient.pomdp
	// wrote tiger-quotient.json
}

// Estimate a run before it starts, and let the budget choose the horizon.
func ExamplePreflight() {
	b, err := bench.Lookup("maze4x3")
	if err != nil {
		panic(err)
	}
	budget := report.Budget{Bytes: 1 << 30, Seconds: 1}
	for _, T := range []int{3, 9} {
		e, err := report.Preflight(context.Background(), b.Model, fsc.KindStationary, 1, T, budget)
		if err != nil {
			panic(err)
		}
		fmt.Printf("T = %d: %d controllers, %d histories, fits: %v\n", T, e.Size, e.Histories, e.Fits())
	}
	T, _, err := report.ChooseT(context.Background(), b.Model, fsc.KindStationary, []int{1}, budget)
	if err != nil {
		panic(err)
	}
	fmt.Println("T chosen within 1 s is 3 or more:", T >= 3)
	// Output:
	// T = 3: 4 controllers, 259 histories, fits: true
	// T = 9: 4 controllers, 12093235 histories, fits: false
	// T chosen within 1 s is 3 or more: true
}
