package verdict_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/verdict"
)

func ExampleAgrees() {
	fmt.Println(verdict.Agrees(0.4949, "0.49"), verdict.Agrees(0.4951, "0.49"))
	fmt.Println(verdict.Agrees(0.3, "0"), verdict.Agrees(0, "0")) // a bare 0 is a claim of zero
	// Output:
	// true false
	// false true
}

func ExampleDecide() {
	// The table's one reading: the same variant at T = 4, computed.
	atT4 := map[int]float64{0: 14}
	r := &verdict.Reading{How: "the table at T = 4", Covers: map[string]string{"classes": "the count at T = 4"},
		Value: func(i int, _ string) (float64, bool) { v, ok := atT4[i]; return v, ok }}
	d := verdict.Decide(verdict.Row{Index: 0, Reading: r, Cells: []verdict.Cell{
		{Column: "classes", Kind: verdict.Exact, Ours: "4", Printed: "14"}}})
	fmt.Println(d.Status)
	fmt.Println(d.Note)
	// Output:
	// differs (explained)
	// paper differs: by the table's reading, the printed classes 14 is the count at T = 4 (14); (classes: ours 4, paper 14)
}
