package pomdp_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// The paper's Tiger observes "R", a keyword of the .pomdp format: it is
// written "R_", and the rename comment restores it on reading.
func ExampleSafeNames() {
	names, renames, err := pomdp.SafeNames("observations", []string{"L", "R"}, func(n string) bool { return n != "R" })
	if err != nil {
		panic(err)
	}
	fmt.Println(names)
	for _, r := range renames {
		fmt.Println("# " + r.String())
	}
	// Output:
	// [L R_]
	// # pomdpq-rename observations R_ "R"
}
