package modelfile_test

import (
	"fmt"

	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

func ExampleLoad() {
	m, err := modelfile.Load("../testdata/tiger.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m, m.Actions)
	// Output:
	// tiger: |S|=2 |A|=3 |O|=2 [listen open-left open-right]
}
