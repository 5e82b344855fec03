package nb_test

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/pomdpq/pomdpq/lib/nb"
)

// Outside a notebook, Table writes an aligned text table; in a notebook cell
// the same call shows an HTML table.
func ExampleTable() {
	df := dataframe.New(
		series.New([]string{"listen", "open-left"}, series.String, "action"),
		series.New([]float64{-1, 1.0 / 3}, series.Float, "reward"),
	)
	if err := nb.Table(df, nb.Digits(3), nb.Caption("Tiger")); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Tiger
	// action     reward
	// ---------  ------
	// listen         -1
	// open-left   0.333
}

func ExampleShowAgreement() {
	nb.ShowAgreement("Table 2", []nb.Row{
		nb.DigitsRow("tab:obs/1", "V(q)", 19.3712, "19.37"),
		nb.DigitsRow("tab:obs/2", "classes", 4, "5"),
		nb.WithinRow("fig:mc", "mean return", 4.96, 5.0, 0.1),
	})
	// Output:
	// Table 2: 2 of 3 agree
	//    key        quantity      ours  paper  kind         note
	// -  ---------  -----------  -----  -----  -----------  ----
	// ✓  tab:obs/1  V(q)         19.37  19.37  exact
	// ✗  tab:obs/2  classes          4      5  exact
	// ✓  fig:mc     mean return   4.96      5  statistical  ±0.1
}

func ExampleAgreeDigits() {
	fmt.Println(nb.AgreeDigits(0.4567, "0.46"), nb.AgreeDigits(0.4567, "0.45"), nb.AgreeDigits(0.125, "0.13"))
	// Output: true false true
}

func ExampleShowGraph() {
	g := &nb.LayeredGraph{
		Layers:      [][]string{{"∅"}, {"L", "R"}},
		LayerTitles: []string{"t=0", "t=1"},
		Edges: []nb.Edge{
			{From: [2]int{0, 0}, To: [2]int{1, 0}, Label: "hear L"},
			{From: [2]int{0, 0}, To: [2]int{1, 1}, Label: "hear R"},
		},
	}
	if err := nb.ShowGraph(g); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=0: ∅
	// t=1: L | R
	// ∅ -> L [hear L]
	// ∅ -> R [hear R]
}

func ExampleProgress() {
	p := nb.NewProgress("samples")
	work := func(report func(done, total int)) {
		for i := 1; i <= 4; i++ {
			report(i, 4)
		}
	}
	work(p.Func())
	// Output:
	// samples: 1/4 (25%)
	// samples: 2/4 (50%)
	// samples: 3/4 (75%)
	// samples: 4/4 (100%)
}

func ExampleCheck() {
	nb.Check("tiger.classes", 3)
	nb.Check("tiger.value", 19.371204)
	// Output:
	// CHECK tiger.classes=3
	// CHECK tiger.value=19.371204
}

func ExampleFormatNumber() {
	fmt.Println(nb.FormatNumber(0.1234567, 3), nb.FormatNumber(2.50, 0), nb.FormatNumber(1.5e-9, 0))
	// Output: 0.123 2.5 1.5e-09
}
