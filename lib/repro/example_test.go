package repro_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/lib/repro"
)

// Regenerate tab:capacity-sweep-gridworld and compare it with the paper.
func ExampleLookup() {
	s, err := repro.Lookup("capacity-sweep-gridworld")
	if err != nil {
		panic(err)
	}
	t, err := s.Build(context.Background(), &repro.Env{})
	if err != nil {
		panic(err)
	}
	agree, _ := t.Compare()
	fmt.Printf("%s: %d/%d rows agree\n", t.Label, agree, t.Compared())
	c := t.Counts()
	fmt.Printf("exact %d, statistical %d, pattern %d, explained %d, unexplained %d, settings %d\n",
		c.Exact, c.Statistical, c.Pattern, c.Explained, c.Unexplained, c.Settings)
	// Output:
	// tab:capacity-sweep-gridworld: 8/8 rows agree
	// exact 8, statistical 0, pattern 0, explained 0, unexplained 0, settings 0
}

// The status of each row of the paper's PBVI table: every printed cell
// is judged (the seeded value gap included), and a difference counts as
// explained only when the table's one reading (the same pipeline on the
// exact quotient) reproduces every differing cell: here it never does.
func ExampleTable_Counts() {
	s, err := repro.Lookup("pbvi-comparison")
	if err != nil {
		panic(err)
	}
	t, err := s.Build(context.Background(), &repro.Env{})
	if err != nil {
		panic(err)
	}
	if _, err := t.Compare(); err != nil {
		panic(err)
	}
	for i, row := range t.Rows {
		fmt.Printf("%-24s gap %s: %s\n", row[0], row[6], t.Status[i])
	}
	c := t.Counts()
	fmt.Printf("%d agree, %d explained, %d unexplained\n", c.Agreeing(), c.Explained, c.Unexplained)
	// Output:
	// Tiger                    gap 2.860: differs
	// GridWorld 3x3            gap 0.117: differs
	// GridWorld 5x5            gap 0.097: differs
	// Network Monitoring (n=4) gap 0.085: differs
	// RockSample(4,4)          gap 5.000: differs
	// 0 agree, 0 explained, 5 unexplained
}
