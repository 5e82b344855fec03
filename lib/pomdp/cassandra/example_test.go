package cassandra_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
)

// The Tiger problem in Cassandra's format, as in pomdp-solve's examples.
const tigerPOMDP = `
discount: 0.95
values: reward
states: tiger-left tiger-right
actions: listen open-left open-right
observations: tiger-left tiger-right
start: uniform

T: listen identity
T: open-left uniform
T: open-right uniform

O: listen
0.85 0.15
0.15 0.85
O: open-left uniform
O: open-right uniform

R: listen : * : * : * -1
R: open-left : tiger-left : * : * -100
R: open-left : tiger-right : * : * 10
R: open-right : tiger-left : * : * 10
R: open-right : tiger-right : * : * -100
`

func ExampleRead() {
	m, err := cassandra.Read(strings.NewReader(tigerPOMDP), "tiger.pomdp")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m)
	fmt.Println("discount:", m.Discount)
	fmt.Println("Z(tiger-left, listen, tiger-left):", m.ObsProb(0, 0, 0))
	fmt.Println("R(tiger-left, open-left):", m.R[0][1])
	// Output:
	// tiger: |S|=2 |A|=3 |O|=2
	// discount: 0.95
	// Z(tiger-left, listen, tiger-left): 0.85
	// R(tiger-left, open-left): -100
}

func ExampleRead_error() {
	bad := strings.Replace(tigerPOMDP, "0.15 0.85", "0.15 abc", 1)
	_, err := cassandra.Read(strings.NewReader(bad), "tiger.pomdp")
	fmt.Println(err)
	// Output:
	// pomdp: tiger.pomdp:15:6: O: expected a probability (entry 4 of 4: a 2×2 matrix or "uniform"), got "abc"
}

func ExampleWrite() {
	m := pomdp.Must(pomdp.New(pomdp.Dense{
		States:       []string{"left", "right"},
		Actions:      []string{"listen"},
		Observations: []string{"hear-left", "hear-right"},
		T:            [][][]float64{{{1, 0}, {0, 1}}},
		Z:            [][][]float64{{{0.85, 0.15}, {0.15, 0.85}}},
		R:            [][]float64{{-1}, {-1}},
		Discount:     0.95, HasDiscount: true,
	}))
	if err := cassandra.Write(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # written by pomdpq WriteCassandra
	//
	// discount: 0.95
	// values: reward
	// states: left right
	// actions: listen
	// observations: hear-left hear-right
	//
	// start: uniform
	//
	// T: listen identity
	//
	// O: listen : left
	// 0.85 0.15
	// O: listen : right
	// 0.15 0.85
	//
	// R: listen : left : * : * -1
	// R: listen : right : * : * -1
}
