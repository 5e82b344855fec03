package pomdp_test

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// ExampleReadGroundCSV reads GridWorld's quadrant metric with the rows in
// another order than the model's observations, then a file that breaks
// the triangle inequality.
func ExampleReadGroundCSV() {
	obs := []string{"NW", "NE", "SW", "SE"}
	const csv = `# name: quadrant-manhattan
,NW,NE,SW,SE
SE,1,0.5,0.5,0
NW,0,0.5,0.5,1
NE,0.5,0,1,0.5
SW,0.5,1,0,0.5
`
	g, err := pomdp.ReadGroundCSV(strings.NewReader(csv), "quadrants.csv", obs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Name, g.D)

	bad := strings.Replace(csv, "NW,0,0.5,0.5,1", "NW,0,0.5,0.5,2", 1)
	_, err = pomdp.ReadGroundCSV(strings.NewReader(bad), "bad.csv", obs)
	fmt.Println(err)
	// Output:
	// quadrant-manhattan [[0 0.5 0.5 1] [0.5 0 1 0.5] [0.5 1 0 0.5] [1 0.5 0.5 0]]
	// pomdp: bad.csv:4:14: d(NW, SE): 2, but d(SE, NW) = 1 (line 3): the matrix must be symmetric (within 1e-12)
}
