package certify

import (
	"context"
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// ApproxOptions configure ProbeApprox. The zero value means L_R = 1,
// one controller per distinct action tree, no progress.
type ApproxOptions struct {
	// LR is the observation-Lipschitz constant of the model's reward
	// (def:obs-lipschitz); 0 means 1, the synthetic observation reward of
	// value.WithObsReward under the discrete metric.
	LR float64
	// Every evaluates every member of the family. By default only the
	// first controller of each tensor column is evaluated: controllers with
	// the same action tree take the same actions at every history, so
	// their beliefs, laws, quotients seen and values are the same.
	Every bool
	// Progress, when set, is called with the number of (subset, ε) cases
	// done and their total.
	Progress func(done, total int)
}

// ApproxCheck is one (k, ε) case of the thm:probe-approx check.
type ApproxCheck struct {
	K   int
	Eps float64
	// DeltaS is the envelope gap of the greedy subset S_k.
	DeltaS float64
	// Classes of the subset's ε-partition and of the full family's.
	Classes, FullClasses int
	// Diameter is the full-family diameter max d(h, h') over pairs in one
	// class of the subset's partition; the proof bounds it by ε + δ_S.
	Diameter float64
	// Bound is L_R·T·(ε + δ_S).
	Bound float64
	// MaxGap is max_π |V_M^π − V_{M̃_S}^π| over the probes evaluated;
	// Worst the family index attaining it.
	MaxGap float64
	Worst  int
	Probes int
}

// OK reports whether the case satisfies both inequalities of the proof of
// thm:probe-approx: Diameter ≤ ε + δ_S and MaxGap ≤ Bound (each with a
// slack of 1e-9).
func (c ApproxCheck) OK() bool {
	return c.Diameter <= c.Eps+c.DeltaS+1e-9 && c.MaxGap <= c.Bound+1e-9
}

// ProbeApprox checks thm:probe-approx,
//
//	|V_M^π − V_{M̃_S}^π| ≤ L_R · T · (ε + δ_S)   for every π ∈ Π,
//
// for the greedy subsets S_k (k in ks) and tolerances eps: M̃_S is the
// quotient (quotient.New, seen by each probe through ForProbe) of the
// greedy complete-linkage ε-partition of the subset envelope d_S, and V is
// the latent value (value.LatentReward) of model m's reward over horizon T.
// The tensor t must come from the same model, family and T, computed under
// a ground metric for which the reward is L_R-observation-Lipschitz (for
// value.WithObsReward: the discrete metric, L_R = 1).
//
// It returns an error when the family does not match the tensor, when a
// quotient or an evaluation fails, or ctx's error if cancelled. Cost: per
// case one quotient, and per probe one ForProbe model and one evaluation.
func ProbeApprox(ctx context.Context, m *pomdp.Model, fam fsc.Family, T int, t *Tensor, eps []float64, ks []int, opt ApproxOptions) ([]ApproxCheck, error) {
	if fam.Len() != len(t.res.Column) {
		return nil, fmt.Errorf("certify: the family has %d controllers but the tensor was computed for %d", fam.Len(), len(t.res.Column))
	}
	if len(t.sizes) != T+1 {
		return nil, fmt.Errorf("certify: the tensor has %d depths, horizon T = %d needs %d", len(t.sizes), T, T+1)
	}
	LR := opt.LR
	if LR == 0 {
		LR = 1
	}
	var probes []int
	if opt.Every {
		for i := 0; i < fam.Len(); i++ {
			probes = append(probes, i)
		}
	} else {
		probes = append(probes, t.First...)
	}
	ev, err := value.NewEvaluator(m, T, value.LatentReward{}, value.Options{})
	if err != nil {
		return nil, err
	}
	vm := make([]float64, len(probes))
	ctrl := make([]*fsc.FSC, len(probes))
	for i, p := range probes {
		ctrl[i] = fam.At(p)
		if vm[i], err = ev.Value(ctrl[i]); err != nil {
			return nil, err
		}
	}
	full := t.Matrices(t.Full())
	var out []ApproxCheck
	total := len(ks) * len(eps)
	for _, k := range ks {
		S := Greedy(t, k)
		dS := Gap(t, S)
		sub := t.Matrices(t.Envelope(S))
		for _, e := range eps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p := partition.Greedy(sub, e)
			q, err := quotient.New(m, T, p)
			if err != nil {
				return nil, err
			}
			c := ApproxCheck{K: k, Eps: e, DeltaS: dS, Classes: p.Total(), FullClasses: partition.Greedy(full, e).Total(),
				Diameter: Diameter(full, p), Bound: value.Bound(LR, T, e+dS), Worst: -1, Probes: len(probes)}
			for i, pi := range ctrl {
				qm, err := q.ForProbe(pi)
				if err != nil {
					return nil, err
				}
				vq, err := value.Evaluate(qm, pi, T, value.LatentReward{})
				if err != nil {
					return nil, err
				}
				if g := math.Abs(vm[i] - vq); g > c.MaxGap || c.Worst < 0 {
					c.MaxGap, c.Worst = g, probes[i]
				}
			}
			out = append(out, c)
			if opt.Progress != nil {
				opt.Progress(len(out), total)
			}
		}
	}
	return out, nil
}
