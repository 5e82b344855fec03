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
	for i, row := range t.Rows[:3] {
		fmt.Println(row, t.Status[i])
	}
	// Output:
	// tab:capacity-sweep-gridworld: 8/8 rows agree
	// [1 0 6 0.29 5] agree
	// [1 0.2 5 0.24 5] agree
	// [1 0.35 3 0.14 5] agree
}
