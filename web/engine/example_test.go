package engine_test

import (
	"context"
	"fmt"

	"github.com/pomdpq/pomdpq/web/engine"
)

// The page's shared link index.html?model=maze4x3&m=1&T=3&eps=0,0.1,0.3
// sends this request to the engine in its Web Worker.
func ExampleEngine_Handle() {
	var e engine.Engine
	resp := e.Handle(context.Background(), engine.Request{Op: "run", Model: "maze4x3", M: []int{1}, T: 3, Eps: []float64{0, 0.1, 0.3}}, nil)
	if resp.Error != "" {
		panic(resp.Error)
	}
	for _, c := range resp.Counts {
		fmt.Printf("ε = %g: %d classes\n", c.Eps, c.Classes[0])
	}
	// Output:
	// ε = 0: 25 classes
	// ε = 0.1: 24 classes
	// ε = 0.3: 19 classes
}
