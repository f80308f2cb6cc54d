// Package gpumodel is profan's analytic model of NVIDIA GPU memory: a table
// of GPU specifications with the peaks derived from them, the global-memory
// coalescing rules of every compute capability, the shared-memory bank
// model, and the inverse of the coalescing model that turns measured
// sectors per request into a named access pattern. It does no I/O and
// imports only the standard library.
//
// # Specs and peaks
//
// Spec holds datasheet numbers; peaks are computed from them, never stored:
//
//	PeakBandwidth = MemClock[MHz]·1e6 × BusWidth/8 × DataRate   [B/s]
//	PeakFP32      = SMs × FP32 lanes × 2 × SM clock             [FLOP/s]
//	PeakFP64      = SMs × FP64 lanes × 2 × SM clock
//	Balance       = peak warp instructions/s ÷ (PeakBandwidth / 32 B)
//	Ridge         = peak FLOP/s ÷ PeakBandwidth                  [FLOP/B]
//
// The bandwidth formula and its decimal units are those of Harris's GTX 280
// slide (1107 MHz × 512/8 × 2 = 141.7 GB/s) and the "How to Implement
// Performance Metrics" post (M2050: 1546 MHz × 384/8 × 2 = 148 GB/s).
// Memory clocks use CUDA's convention, half the per-pin data rate, so
// DataRate is 2 throughout; each table entry names its source, and a test
// holds every computed peak within 2% of the stored datasheet figure.
// Balance is the instruction:byte ratio of the cpsc424 lecture; its "3.76"
// is the Tesla M2090's. Balance and the ridges are computed in the tests
// (spec_test.go), which hold them to the published figures; the analysis
// reads the peaks. Lookup maps device names as
// exports print them to specs; byCC picks a representative per compute
// capability; Identify uses every clue an export gives (the name, ncu's
// DRAM frequency, memory size, SM count, L2 size, bus width) and says, as
// a typed DeviceSource, whether the GPU was named, recognised from its
// attributes or assumed from the compute capability.
//
// # Coalescing
//
// Predict counts what one warp-wide load instruction costs when threads
// threads read elements with a Pattern (sequential, offset, stride,
// uniform, random) from a 128-B aligned array:
//
//   - CC ≥ 7.0: each warp is one request; L1 looks up the distinct 128-B
//     lines the active threads touch and L2 serves the distinct 32-B
//     sectors (Pearson, "Measuring Memory Access Efficiency in Nsight
//     Compute"). This reproduces Pearson's Titan V table exactly: 10,000
//     floats read sequentially cost 313 requests, 313 L1 and 1,250 L2
//     transactions; doubles 313, 625 and 2,500.
//   - CC 2.x–6.x: with L1 caching, 128-B line transactions (L2 then moves
//     whole lines); without, 32-B transactions. Fermi caches global loads
//     in L1 by default, Kepler through Pascal in L2 only (Programming
//     Guide, compute capability 3.x and 5.x sections); Options.L1 selects.
//   - CC 1.2/1.3: per half-warp, 32/64/128-B segments, each halved while
//     the served addresses fit in one half (Harris: "1 transaction - 64B
//     segment", "2 transactions - 64B and 32B segments").
//   - CC 1.0/1.1: a half-warp coalesces only if thread k reads word k of
//     an aligned segment (one 64-B transaction for 4-B words, 128 B for
//     8-B, two of 128 B for 16-B); otherwise each thread costs one 32-B
//     transaction.
//
// Random access is an expected value computed exactly, not simulated: each
// warp reads a uniformly random subset of distinct elements (its slice of a
// permutation), so E[distinct lines] = Σ_lines 1 − C(n−m, a)/C(n, a). For
// Pearson's 10,000-element permutation this gives 9,534 L1 and 9,892 L2
// transactions for floats (measured: 9,566 and 9,895) and 9,771 and 9,954
// for doubles (measured: 9,740 and 9,947), all within 0.4%.
//
// IdealSectors evaluates Pearson's ideal T_i = E·(S/8)/128 (and its 32-B
// form) for measured E and S. Explain inverts the model: sectors per
// request at the ideal is coalesced, one more is misaligned, k times the
// ideal is a stride of k elements, about 32 is a stride of 32 B or more or
// scattered access, about 1 is a broadcast. Plausible rejects counter sets
// no GPU can produce.
//
// # Shared memory banks
//
// bankConflict gives the conflict degree of a warp (a half-warp on the 16
// banks of CC 1.x) reading at tid·stride: successive 4-B words in
// successive banks, identical words broadcast, elements wider than a bank
// row split into phases. TileColumnConflict and PaddingFor apply it to the
// column read of a tile[T][W], the transpose example of the Harris's CUDA performance slides:
// W = 32 floats conflict 32 ways, W = 33 not at all.
package gpumodel
