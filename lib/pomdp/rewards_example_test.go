package pomdp_test

import (
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
)

// A reward that depends on the observation: listening pays 1 when the
// observation is right, -1 otherwise.
const listenPOMDP = `discount: 0.9
values: reward
states: left right
actions: listen
observations: hear-left hear-right
T: listen identity
O: listen
0.85 0.15
0.15 0.85
R: listen : * : * : * -1
R: listen : left : left : hear-left 1
R: listen : right : right : hear-right 1
`

// ExampleModel_Reward reads a model whose reward depends on the
// observation: the model keeps R(s, a, s', o) and its expectation R(s, a),
// which values use; ExpectedRewards keeps the expectation only.
func ExampleModel_Reward() {
	m, err := cassandra.Read(strings.NewReader(listenPOMDP), "listen.pomdp")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.RewardSummary())
	fmt.Println("R(left, listen, left, hear-left) =", m.Reward(0, 0, 0, 0))
	fmt.Println("R(left, listen, left, hear-right) =", m.Reward(0, 0, 0, 1))
	fmt.Printf("R(left, listen) = %.2f\n", m.R[0][0]) // 0.85·1 + 0.15·(−1)

	var src pomdp.Source
	e, err := cassandra.Read(strings.NewReader(listenPOMDP), "listen.pomdp", pomdp.ExpectedRewards(), pomdp.Describe(&src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, %d entries dropped, R(left, listen) = %.2f\n", e.RewardSummary(), src.DroppedRewards, e.R[0][0])
	// Output:
	// R(s,a,s',o) kept (4 entries); values use the expectation R(s,a)
	// R(left, listen, left, hear-left) = 1
	// R(left, listen, left, hear-right) = -1
	// R(left, listen) = 0.70
	// R(s,a), 4 entries dropped, R(left, listen) = 0.70
}
