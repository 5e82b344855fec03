package repro

import (
	"testing"
)

// TestCertificateTables pins how many rows of the tables of notebook 05
// agree with the paper (low-rank.csv; the §7.4 and conj:hankel-rank lines
// of inline-claims.csv) and that no row differs.
func TestCertificateTables(t *testing.T) {
	want := map[string]Counts{
		"low-rank":           {Exact: 4},
		"certificate-claims": {Exact: 7, Pattern: 2},
	}
	checkAgreement(t, &Env{}, want)
}
