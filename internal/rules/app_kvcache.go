package rules

import (
	"fmt"
	"sort"

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
takes each: a write of one position costs about the smallest copy. A cache is
read by its mechanism, not by the kernel's name: the copies' launch
configurations (the grid ATen sizes to the output) grow by one fixed step
over at least four sizes, as a cache does by one token a call, in a step
that runs attention. Cats at fixed shapes (a UNet's skip connections, a
rotary embedding's halves) are no cache, nor are copies that save less than
min_gain: the rule is silent.`,
	Before:   `k_cache = torch.cat([k_cache, k], dim=2)`,
	After:    `k_cache.index_copy_(2, pos, k)     # k_cache preallocated: [B, H, max_len, D]`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"kv-cat"},
	Optional: []string{"backward", "optimizer", "attention-eager", "attention-fused"},
	CheckApp: func(p *AppPass) {
		// A cache is an inference step's, read by attention.
		if p.training() || len(p.kernels("attention-eager"))+len(p.kernels("attention-fused")) == 0 {
			return
		}
		cats := p.kernels("kv-cat")
		if !Growing(cats) {
			return
		}
		saves := map[*analysis.Group]float64{}
		for _, g := range cats {
			if g.Duration > 0 && g.Min == g.Min {
				saves[g] = 1 - float64(g.Timed)*g.Min/g.Duration
			}
		}
		// A cache too short to matter saves under min_gain.
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

// minGrowth is how many sizes, each one fixed step past the one before,
// make copies a growing cache: a decode loop's tokens give one per token,
// a model's own cats a few unrelated ones.
const minGrowth = 4

// Growing reports whether the copies of gs grow by a fixed step: among
// their launch configurations' sizes (the threads of the grid, which
// ATen's cat kernel scales with its output until the GPU is full), at
// least minGrowth distinct ones, each one step past the one before. A
// UNet's skip connections cat the same few shapes every step and do not.
func Growing(gs []*analysis.Group) bool {
	seen := map[int]bool{}
	for _, g := range gs {
		for _, c := range g.Configs {
			n := 1
			for _, d := range append(c.Grid[:], c.Block[:]...) {
				n *= max(d, 1)
			}
			seen[n] = true
		}
	}
	sizes := make([]int, 0, len(seen))
	for n := range seen {
		sizes = append(sizes, n)
	}
	sort.Ints(sizes)
	run := 1
	for i := 1; i < len(sizes); i++ {
		switch {
		case i >= 2 && sizes[i]-sizes[i-1] == sizes[i-1]-sizes[i-2]:
			run++
		default:
			run = 2
		}
		if run >= minGrowth {
			return true
		}
	}
	return false
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
