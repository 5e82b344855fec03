package partition

// Meet replaces the labels a by those of the common refinement of a and b
// (the coarsest partition finer than both): items get the same label
// exactly when they share their label in a and in b. Labels are numbered
// from 0 in order of first appearance. It panics if the lengths differ.
func Meet(a, b []int) {
	if len(a) != len(b) {
		panic("partition: Meet of labelings of different lengths")
	}
	ids := make(map[[2]int]int)
	for i := range a {
		key := [2]int{a[i], b[i]}
		id, ok := ids[key]
		if !ok {
			id = len(ids)
			ids[key] = id
		}
		a[i] = id
	}
}
