package nb

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/witness"
)

// WitnessHeader is the header of a table of certificates (package
// witness), one [WitnessRow] per certificate.
var WitnessHeader = []string{"model", "criterion", "|S|", "T", "|O|", "|A|", "classes (smaller vs larger family)",
	"pair", "separating probe", "laws after the pair", "stand-in-free"}

// WitnessRow is the row of certificate w, labelled label, in a table
// headed by [WitnessHeader]: the model's class, the class counts of the two
// families, the pair of histories, the probe that tells them apart and
// their suffix laws under it (W1 and TV distances and ε for the metric
// criterion), and whether both histories are possible under every probe.
func WitnessRow(label string, w *witness.Witness) []string {
	probe, laws := "", ""
	switch {
	case w.Separating != nil:
		probe, laws = w.Separating.Probe, LawText(w.Separating.Law1)+" vs "+LawText(w.Separating.Law2)
	case w.W1 != nil:
		probe = w.W1.Probe
		laws = fmt.Sprintf("%s vs %s: W1 = %s, TV = %s; ε = %s", LawText(w.W1.Law1), LawText(w.W1.Law2),
			FormatNumber(w.W1.Distance, 4), FormatNumber(w.TV.Distance, 4), FormatNumber(w.Eps, 4))
	}
	free := "no"
	if w.Possible {
		free = "yes"
	}
	return []string{label, string(w.Criterion), fmt.Sprint(w.Class.S), fmt.Sprint(w.T), fmt.Sprint(w.Class.O), fmt.Sprint(w.Class.A),
		fmt.Sprintf("%d vs %d %v %v", w.SmallClasses, w.LargeClasses, w.SmallCounts, w.LargeCounts), w.H1 + " / " + w.H2, probe, laws, free}
}

// LawText writes a suffix law as {suffix: p, ...}, probabilities to four
// significant digits.
func LawText(l []witness.Atom) string {
	parts := make([]string, len(l))
	for i, a := range l {
		parts[i] = fmt.Sprintf("%s: %s", a.Suffix, FormatNumber(a.P, 4))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// ShowWitnessQuotients draws the quotients of the two partitions of
// certificate w (the smaller family's, then the larger's), titled by
// names. It returns the error of building or drawing either.
func ShowWitnessQuotients(w *witness.Witness, names [2]string) error {
	small, large := w.Partitions()
	for i, p := range []*partition.Partition{small, large} {
		if p == nil {
			return fmt.Errorf("nb: witness of %s has no %s partition", w.Model.Name, names[i])
		}
		q, err := quotient.New(w.Model, w.T, p)
		if err != nil {
			return err
		}
		if err := ShowQuotient(q, fmt.Sprintf("%s of %s at T = %d: %d classes", names[i], w.Model.Name, w.T, q.Classes())); err != nil {
			return err
		}
	}
	return nil
}

// ModelText returns a small model in Cassandra's .pomdp format without
// its comments, empty lines and the discount and values lines: the
// states, actions, observations, start and the T, O and R entries.
func ModelText(m *pomdp.Model) (string, error) {
	var buf bytes.Buffer
	if err := cassandra.Write(&buf, m); err != nil {
		return "", err
	}
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "discount") && !strings.HasPrefix(l, "values") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n"), nil
}

// ShowModel displays [ModelText] as a code block under the model's name.
func ShowModel(m *pomdp.Model) error {
	text, err := ModelText(m)
	if err != nil {
		return err
	}
	Markdown(fmt.Sprintf("`%s`:\n```\n%s\n```", m.Name, text))
	return nil
}
