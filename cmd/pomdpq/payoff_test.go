package main

import (
	"encoding/json"
	"testing"
)

// TestPlanPayoffJSON: plan --json's payoff on Tiger (m = 1, T = 4,
// observation reward) with the model planned on and refused by --max-work:
// the outcome and quotient_pays agree with the times and the refusal, and a
// refused model carries the lower bound |Π|·T·|S| = 3·4·2 of the
// exhaustive search (no planning time, no value).
func TestPlanPayoffJSON(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		refused bool
	}{
		{"planned on both", nil, false},
		{"out of reach", []string{"--max-work", "1"}, true},
	}
	for _, tc := range cases {
		args := append([]string{"plan", "--model", "tiger", "--m", "1", "--T", "4", "--eps", "0,0.5", "--reward", "observation", "--json", "--progress=off"}, tc.args...)
		out, err := runCLI(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		var j planOutJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		p := j.Payoff
		want := "model faster"
		switch {
		case tc.refused:
			want = "model out of reach"
		case p.ModelSec != nil && p.QuotientSec < *p.ModelSec:
			want = "quotient faster"
		}
		if p.Outcome != want || p.Pays != (want != "model faster") {
			t.Errorf("%s: outcome %q, pays %v; want %q", tc.name, p.Outcome, p.Pays, want)
		}
		if tc.refused != (p.ModelSec == nil) || tc.refused != (p.ModelValue == nil) || tc.refused != (p.ModelRefused != "") {
			t.Errorf("%s: model %v s, value %v, refused %q", tc.name, p.ModelSec, p.ModelValue, p.ModelRefused)
		}
		if p.ModelAtLeast != 3*4*2 || p.AtLeastHow == "" || p.ModelAtLeast > p.ModelWork {
			t.Errorf("%s: at least %g steps (%q), estimate %g: want 24, at most the estimate", tc.name, p.ModelAtLeast, p.AtLeastHow, p.ModelWork)
		}
	}
}
