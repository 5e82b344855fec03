package pomdpjson_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
)

func ExampleRead() {
	const doc = `{
  "name": "coin",
  "states": ["heads", "tails"],
  "actions": ["look"],
  "observations": ["H", "T"],
  "transitions": {"look": [[1, 0], [0, 1]]},
  "observation_model": [
    {"action": "look", "to": "heads", "obs": "H", "p": 0.9},
    {"action": "look", "to": "heads", "obs": "T", "p": 0.1},
    {"action": "look", "to": "tails", "obs": "T", "p": 1}
  ],
  "rewards": [{"action": "look", "state": "heads", "r": 1}]
}`
	m, err := pomdpjson.Read(strings.NewReader(doc), "coin.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	post, prob := m.Update(m.B0, 0, m.ObsIndex("H"))
	fmt.Println(m, "discount:", m.HasDiscount)
	fmt.Printf("P(H) = %.2f, belief after H = %.3f\n", prob, post)
	// Output:
	// coin: |S|=2 |A|=1 |O|=2 discount: false
	// P(H) = 0.45, belief after H = [1.000 0.000]
}

func ExampleWrite() {
	m := pomdp.Must(pomdp.New(pomdp.Dense{
		Name:         "coin",
		States:       []string{"heads", "tails"},
		Actions:      []string{"look"},
		Observations: []string{"H", "T"},
		T:            [][][]float64{{{1, 0}, {0, 1}}},
		Z:            [][][]float64{{{0.9, 0.1}, {0, 1}}},
	}))
	if err := pomdpjson.Write(os.Stdout, m); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "name": "coin",
	//   "states": ["heads", "tails"],
	//   "actions": ["look"],
	//   "observations": ["H", "T"],
	//   "start": [0.5, 0.5],
	//   "transitions": [
	//     {"action": "look", "from": "heads", "to": "heads", "p": 1},
	//     {"action": "look", "from": "tails", "to": "tails", "p": 1}
	//   ],
	//   "observation_model": [
	//     {"action": "look", "to": "heads", "obs": "H", "p": 0.9},
	//     {"action": "look", "to": "heads", "obs": "T", "p": 0.1},
	//     {"action": "look", "to": "tails", "obs": "T", "p": 1}
	//   ],
	//   "rewards": []
	// }
}
