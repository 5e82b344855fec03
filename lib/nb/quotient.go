package nb

import (
	"fmt"
	"html"
	"strings"

	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/render"
)

// ShowQuotient draws the quotient's diagram and prints its class counts.
func ShowQuotient(q *quotient.Quotient, title string) error {
	if title == "" {
		title = fmt.Sprintf("quotient of %s: %d classes", q.M.Name, q.Classes())
	}
	return ShowGraph(render.QuotientGraph(q, title))
}

// PartitionText lists a partition's classes per depth with history labels.
func PartitionText(p *partition.Partition, label func(t, i int) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d classes (per depth %v)\n", p.Total(), p.Counts())
	for t := 0; t < p.Depths(); t++ {
		fmt.Fprintf(&b, "t=%d:", t)
		for c := 0; c < p.Classes(t); c++ {
			fmt.Fprintf(&b, " {%s}", strings.Join(memberNames(p, t, c, label, 6), ","))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ShowPartition displays a partition: its class count per depth and its
// classes (at most six members shown per class).
func ShowPartition(p *partition.Partition, label func(t, i int) string) {
	text := PartitionText(p, label)
	if !IsNotebook() {
		fmt.Fprint(output(), text)
		return
	}
	HTML("<pre>" + html.EscapeString(text) + "</pre>")
}
