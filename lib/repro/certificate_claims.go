package repro

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/verdict"
)

func init() {
	register(Spec{Name: "certificate-claims", Label: "§7.4, conj:hankel-rank (prose)",
		Title: "Numbers stated in the prose on controller subsets, effective rank and Hankel rank", Build: certificateClaims})
}

// certClaim computes one inline claim of §7.4 / conj:hankel-rank.
type certClaim struct {
	id    string
	bound bool // the paper states an upper bound: ours must not exceed it
	value func(ctx context.Context, env *Env) (value, detail string, err error)
}

// greedyChain returns δ_{S_k} for k = 1 … K.
func greedyChain(t *certify.Tensor, K int) []float64 {
	var gaps []float64
	for _, s := range certify.GreedyCurve(t, K) {
		gaps = append(gaps, s.Gap)
	}
	for len(gaps) < K { // no column adds coverage: the gap stays
		gaps = append(gaps, gaps[len(gaps)-1])
	}
	return gaps
}

// smallestCertified returns the smallest greedy k with δ_{S_k} = 0 (0 if
// none up to K) and the exact r_env(δ = 0).
func smallestCertified(ctx context.Context, t *certify.Tensor, K int) (int, int, error) {
	k0 := 0
	for k, g := range greedyChain(t, K) {
		if g <= 1e-12 {
			k0 = k + 1
			break
		}
	}
	cv, err := certify.EnvelopeRank(ctx, t, 0, 0)
	return k0, cv.Size, err
}

// certCases are the settings of §7.4's certificates: Tiger at T = 4 and
// GridWorld 3×3 at T = 2, the claim stating the k that certifies each.
var certCases = []struct {
	name, model string
	T           int
	claim       string
}{{"Tiger", "tiger", 4, "pa_tiger_k"}, {"GridWorld 3x3", "gridworld:3", 2, "pa_gw_k5"}}

// certifiesAt reports k, the paper's claimed subset size (inline claim
// claim), when the greedy subset S_k has δ_S = 0 (the claim "k = … yields
// δ_S = 0"), and the gap otherwise.
func certifiesAt(model string, T int, claim string) func(context.Context, *Env) (string, string, error) {
	return func(ctx context.Context, env *Env) (string, string, error) {
		kf, err := claimedFloat(claim)
		if err != nil {
			return "", "", err
		}
		k := int(kf)
		t, _, err := tensorOf(ctx, env, model, certM, T)
		if err != nil {
			return "", "", err
		}
		gaps := greedyChain(t, k)
		k0, renv, err := smallestCertified(ctx, t, 8)
		if err != nil {
			return "", "", err
		}
		detail := fmt.Sprintf("δ_S(k=%d) = %s; smallest greedy k with δ_S = 0: %d; exact r_env(δ=0) = %d", k, f3(gaps[k-1]), k0, renv)
		if gaps[k-1] <= 1e-12 {
			return itoa(k), detail, nil
		}
		return "δ_S=" + f3(gaps[k-1]), detail, nil
	}
}

func familySize(model string, T int) func(context.Context, *Env) (string, string, error) {
	return func(ctx context.Context, env *Env) (string, string, error) {
		_, n, err := tensorOf(ctx, env, model, certM, T)
		return itoa(n), fmt.Sprintf("deterministic stationary, m ≤ %d", certM), err
	}
}

func gridRank99(ctx context.Context, env *Env) (*certify.Spectrum, error) {
	const T = 2
	t, _, err := tensorOf(ctx, env, "gridworld:3", certM, T)
	if err != nil {
		return nil, err
	}
	sp := t.Spectrum(T-1, true)
	return &sp, nil
}

var certClaims = []certClaim{
	{id: "pa_tiger_fscs", value: familySize(certCases[0].model, certCases[0].T)},
	{id: "pa_tiger_k", value: certifiesAt(certCases[0].model, certCases[0].T, certCases[0].claim)},
	{id: "pa_gw_fscs", value: familySize(certCases[1].model, certCases[1].T)},
	{id: "pa_gw_k5", value: certifiesAt(certCases[1].model, certCases[1].T, certCases[1].claim)},
	{id: "pa_gw_k3", value: func(ctx context.Context, env *Env) (string, string, error) {
		t, _, err := tensorOf(ctx, env, certCases[1].model, certM, certCases[1].T)
		if err != nil {
			return "", "", err
		}
		k0, renv, err := smallestCertified(ctx, t, 8)
		return itoa(k0), fmt.Sprintf("δ_S by k: %s; exact r_env(δ=0) = %d", gapList(greedyChain(t, 5)), renv), err
	}},
	{id: "pa_gw_eff_rank99", value: func(ctx context.Context, env *Env) (string, string, error) {
		sp, err := gridRank99(ctx, env)
		if err != nil {
			return "", "", err
		}
		return itoa(sp.EffectiveRank(0.99)), fmt.Sprintf("%d pairs × %d controllers at depth %d", sp.Rows, sp.Cols, sp.Depth), nil
	}},
	{id: "pa_gw_fsc_fraction_pct", bound: true, value: func(ctx context.Context, env *Env) (string, string, error) {
		sp, err := gridRank99(ctx, env)
		if err != nil {
			return "", "", err
		}
		r := sp.EffectiveRank(0.99)
		return f3(100 * float64(r) / float64(sp.Cols)), fmt.Sprintf("%d / %d controllers", r, sp.Cols), nil
	}},
	{id: "hankel_rank_gw3", value: func(ctx context.Context, env *Env) (string, string, error) {
		b, err := bench.Lookup("gridworld:3")
		if err != nil {
			return "", "", err
		}
		const T = 2
		hr, err := certify.HankelRanks(b.Model, T, 0)
		if err != nil {
			return "", "", err
		}
		paper, err := claimed("hankel_rank_gw3")
		if err != nil {
			return "", "", err
		}
		var parts []string
		val := ""
		for _, h := range hr {
			parts = append(parts, fmt.Sprintf("%s %d", h.Reading, h.Rank))
			if h.Reading == certify.HankelMarginal {
				val = itoa(h.Rank)
			}
		}
		return val, fmt.Sprintf("readings at T = %d: %s (certify.HankelReading; the paper's %s is the marginal reading)", T, strings.Join(parts, ", "), paper), nil
	}},
	{id: "r_env_bound", bound: true, value: func(ctx context.Context, env *Env) (string, string, error) {
		worst := 0
		var parts []string
		for _, c := range certCases {
			t, _, err := tensorOf(ctx, env, c.model, certM, c.T)
			if err != nil {
				return "", "", err
			}
			k0, renv, err := smallestCertified(ctx, t, 8)
			if err != nil {
				return "", "", err
			}
			worst = max(worst, k0)
			parts = append(parts, fmt.Sprintf("%s T=%d: greedy %d, exact %d", c.model, c.T, k0, renv))
		}
		return itoa(worst), strings.Join(parts, "; "), nil
	}},
}

// certNote says what the claims "k = … yields δ_S = 0" check and the
// smallest certifying greedy k and exact r_env of each setting.
func certNote(ctx context.Context, env *Env) (string, error) {
	var ids, ks, smallest []string
	same := true
	for _, c := range certCases {
		k, err := claimed(c.claim)
		if err != nil {
			return "", err
		}
		t, _, err := tensorOf(ctx, env, c.model, certM, c.T)
		if err != nil {
			return "", err
		}
		k0, renv, err := smallestCertified(ctx, t, 8)
		if err != nil {
			return "", err
		}
		same = same && k0 == renv
		ids = append(ids, c.claim)
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
		smallest = append(smallest, fmt.Sprintf("%d on %s (T = %d, exact %d)", k0, c.name, c.T, renv))
	}
	exact := "the exact minimum r_env(δ = 0) is the same"
	if !same {
		exact = "the exact minimum r_env(δ = 0) differs"
	}
	return fmt.Sprintf("%s check the claims 'k = %s yields δ_S = 0': the value is k when the greedy S_k has δ_S = 0. The smallest certifying greedy k is %s; %s.",
		strings.Join(ids, " and "), strings.Join(ks, ", "), strings.Join(smallest, " and "), exact), nil
}

func gapList(g []float64) string {
	var s []string
	for _, v := range g {
		s = append(s, f3(v))
	}
	return strings.Join(s, ", ")
}

func certificateClaims(ctx context.Context, env *Env) (*Table, error) {
	all, err := datasets.Claims()
	if err != nil {
		return nil, err
	}
	t := &Table{Name: "certificate-claims", Paper: "inline-claims", Label: "§7.4, conj:hankel-rank",
		Title:   "Numbers stated in the prose on controller subsets (§7.4), effective rank and Hankel rank (conj:hankel-rank)",
		Columns: []Column{{"id", Key}, {"quantity", Info}, {"value", Exact}, {"detail", Info}}}
	bounds := map[int]bool{}
	for _, c := range certClaims {
		pc, ok := all[c.id]
		if !ok {
			return nil, fmt.Errorf("repro: claim %q is not in datasets/paper/inline-claims.csv", c.id)
		}
		v, detail, err := c.value(ctx, env)
		if err != nil {
			return nil, fmt.Errorf("repro: claim %s: %w", c.id, err)
		}
		if c.bound {
			bounds[len(t.Rows)] = true
		}
		t.Rows = append(t.Rows, []string{c.id, pc.Quantity, v, detail})
	}
	// Upper bounds are judged as bounds: ours must not exceed the printed value.
	t.PatternRow = func(i int) bool { return bounds[i] }
	t.PatternOK = func(i int) verdict.Judgement {
		id, v := t.at(i, "id"), t.at(i, "value")
		ours, err1 := strconv.ParseFloat(v, 64)
		printed, err2 := strconv.ParseFloat(all[id].Value, 64)
		if err1 != nil || err2 != nil || math.IsNaN(ours) {
			return verdict.NotJudgedBecause("not a number")
		}
		if ours <= printed {
			return verdict.ByPattern(fmt.Sprintf("upper bound: ours %s ≤ printed %s", v, all[id].Value))
		}
		return verdict.Differ(fmt.Sprintf("upper bound violated: ours %s > printed %s", v, all[id].Value), "value")
	}
	note, err := certNote(ctx, env)
	if err != nil {
		return nil, err
	}
	t.Notes = append(t.Notes, note,
		"Rows stating upper bounds (pa_gw_fsc_fraction_pct, r_env_bound) are judged as bounds and marked 'pattern'.")
	return t, nil
}
