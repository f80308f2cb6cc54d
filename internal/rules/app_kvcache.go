package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// staticKVCache advises a preallocated key/value cache for a decoding
// step that grows its cache with torch.cat.
var staticKVCache = &Rule{
	ID:    "static-kv-cache",
	Title: "Key/value cache grown with torch.cat: preallocate it",
	Text: `An inference step that grows its key/value cache with torch.cat copies the
whole cache into a new tensor for every token and layer, so the copies grow
with the sequence. A static cache, allocated once at the longest length and
written in place at the token's position (index_copy_, or transformers'
cache_implementation="static"), writes one position per token; CUDA graphs and
torch.compile(mode="reduce-overhead") need fixed shapes and addresses anyway.

The gain is the torch.cat launches' time beyond what the shortest of them
takes each: a write of one position costs about the smallest copy. Copies that
do not grow save less than min_gain and are no cache: the rule is silent.`,
	Before:   `k_cache = torch.cat([k_cache, k], dim=2)`,
	After:    `k_cache.index_copy_(2, pos, k)     # k_cache preallocated: [B, H, max_len, D]`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"kv-cat"},
	Optional: []string{"backward", "optimizer"},
	CheckApp: func(p *AppPass) {
		if p.training() {
			return
		}
		cats := p.kernels("kv-cat")
		saves := map[*analysis.Group]float64{}
		for _, g := range cats {
			if g.Duration > 0 && g.Min == g.Min {
				saves[g] = 1 - float64(g.Timed)*g.Min/g.Duration
			}
		}
		// Copies that do not grow (a rotary embedding's halves, a model's
		// own cat) save under min_gain: no cache to preallocate.
		gain := gainOf(saves, p.total())
		if gain < p.Thresholds.MinGain {
			return
		}
		p.Recommend(analysis.Recommendation{
			Message: fmt.Sprintf("torch.cat copies run %d times (%s of the time), from %.1f to %.1f µs: the cache is copied whole for every token", launchesOf(cats), pct(timeOf(cats)/p.total()), 1e6*minOf(cats), 1e6*maxOf(cats)),
			Fix:     "preallocate the key/value cache at the longest length and write each token in place (cache.index_copy_(2, pos, k), transformers' StaticCache)",
			Groups:  cats, Gain: gain, Saves: saves,
			Basis:    "each copy costs what the shortest one does",
			Composes: "with everything; CUDA graphs and torch.compile need it",
		})
	},
}

func minOf(gs []*analysis.Group) float64 {
	m := 0.0
	for i, g := range gs {
		if i == 0 || g.Min < m {
			m = g.Min
		}
	}
	return m
}

func maxOf(gs []*analysis.Group) float64 {
	m := 0.0
	for _, g := range gs {
		if g.Max > m {
			m = g.Max
		}
	}
	return m
}
