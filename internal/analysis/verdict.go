package analysis

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/metrics"
)

// VerdictVersion is the version of the verdict maker: a run database
// stores it with each run's verdict, and a verdict stored by an older
// maker is re-made on read (and stored again by profan migrate). Bump it
// whenever what a verdict says of the same counters changes: a rule, a
// threshold, a canonical metric's formula, the limiter. Version 1 is every
// verdict stored before versions were recorded; version 6 stores the
// application advice with the run (a run stored before has none: its
// advice is made again from the stored kernels); version 7 adds each
// kernel's speed-of-light headroom; version 8 the rules of its classes
// (narrow-access, register-tile, tiny-blocks, the priced tail); version 9
// reads a details page's atomics from its source page; version 10 reads
// lanes predicated off (warp_nonpred_execution_efficiency: a divergent
// branch the compiler predicated) and prices gathers by L2 lookups;
// version 11 adds cas-loop; version 12 locates tile-shared-memory;
// version 13 says a library kernel's advice in CUDA's terms on a capture
// with no PyTorch in it; version 14 finds CAS loops of a maximum or
// minimum and prices a local table the loop only reads by its loads' L1
// misses (local_load_hit_rate); version 15 prices a 64-bit division on
// its 32-bit path by its move to 32 bits and reads a warp's two
// misaligned runs (a tile's rows) as a misalignment, a sector a run;
// version 16 finds lanes predicated off in an unrolled loop and prices
// them in the time model; version 17 bounds register-tile's gain by the
// global traffic the tile keeps; version 18 counts tiny-blocks' work per
// block by the threads that load distinct bytes; version 19 finds
// register-tile on FP64 FMAs and where the loads' pipe limits the SM,
// and not on global loads a warp spreads over more sectors than it needs;
// version 20 prices a predicated branch whose condition divides with the
// division its rewrite drops; version 21 prices a latency-bound kernel's
// local table whose loads mostly miss L1 at its units' remaining work;
// version 22 prices tile-shared-memory on a naive product's uncoalesced
// L1-served loads by their sectors over the ideal; version 23 finds
// tiny-blocks on a tensor-core product in blocks under 64 threads that
// the memory system limits, priced by the tile a larger block holds, and
// reads a kernel named like cuDNN's, cuBLAS's or NCCL's whose source page
// gives it lines of a CUDA file as the application's own; version 24
// leaves a random gather's excess to a kernel whose own indexing wastes
// as many sectors besides, and bounds tiny-blocks on a CUDA kernel by
// the pipe work its threads keep; version 25 says pageable-memcpy's fix
// by the copies' direction (a copy from the GPU into a pinned buffer,
// waited on by an event before the host reads it); version 26 names the
// worst instruction of a kernel whose own indexing wastes as many
// sectors as its random gathers by that indexing, not the gather;
// version 27 finds register-tile on an integer product (IMAD, IDP fed by
// shared loads) and no tile-shared-memory on reuse through L2 that
// misses L1; version 28 finds register-tile on a half product (HFMA2,
// HMUL2 fed by shared loads) and narrow-access on a stream whose block
// epilogue (shared accesses, atomics) is at most 1 % of its requests;
// version 29 leaves a misaligned access whose extra sectors are its block
// size's drift to tiny-blocks, and names an atomic inlined from a
// toolkit header on the user's line that calls an atomic; version 30
// finds tiny-blocks where the per-SM block limit caps the warps held;
// version 31 reads the L2 as a unit of the headroom, for data the L2
// holds that no block's tile keeps; version 32 prices a bank conflict
// in a DRAM stream whose L1 pipe limits it as relieving the L2's wait on
// that pipe, the fixed stream bound by its DRAM bytes; version 33 says a
// count of one in the singular ("1 block", "1 byte per thread");
// version 34 leaves out of thread-divergence the lanes a division's own
// code idles (its subroutine, the calling line's 32-bit test); version
// 35 leaves narrow-access off a kernel a compute pipe other than the
// load-store pipe limits; version 36 has register-tile count a
// conflict-free shared load by the operands it carries (a complex GEMM's
// float2 and float4 loads); version 37 states what the export lacks
// where the headroom is not known; version 38 has tensor-cores-unused
// find a hand-written GEMM on half inputs converted to FP32 on the FFMA
// pipe; version 39 says a launch of one block "1 block for 132 SMs";
// version 40 states every kernel's headroom, a trace's kernels' by what
// a trace lacks (no hardware counters); version 41 reads torchvision's
// kernels as a library's, its NMS told what its caller can change;
// version 42 has the constant cache as a unit of the headroom where a
// __constant__ table read at per-thread indices serialises
// (constant-serialization), and counts double-precision work on float
// data at the FP32 pipe's rate (fp64-on-float); version 43 has
// fp64-on-float's advice say "where float's accuracy is enough" first;
// version 44 prices the L2's line lookups of any access whose lanes each
// touch their own line (a hashed gather, a stride of 128 bytes or more);
// version 45 prices a read-mostly local table's writes (L2, DRAM) by the
// time model;
// version 46 bounds local-memory's gain by the DRAM time of the global
// bytes its fix keeps; version 47 has tensor-cores-unused find a
// hand-written FP32 GEMM on the FFMA pipe where the tensor cores take
// TF32; version 48 has torch-compile count the launches it leaves eager
// as "of such kernels", not "of these kernels" (they are not all the
// listed kernels'); version 49 reads the L1/shared pipe as a unit of
// the headroom for the shared-memory work a kernel needs (no product);
// version 50 has int-division's 64-bit advice offer a multiply-high
// where the values need 64 bits; version 51 keeps the DataLoader
// workers' pace the step was priced against (App.Feed), which a quiet
// step's list names; version 52 has cuda-graphs not priced on a step
// that synchronises the device several times between its launches;
// version 53 counts bytes that later passes re-read once in the
// headroom's DRAM need; version 54 has narrow-access leave volatile
// (strong) loads alone; version 55 has tiny-blocks leave a kernel at its
// speed of light alone and int-division name the line that divides;
// version 56 has cas-loop's fix relieve the L1 and the pipes of the
// loop's retries; version 57 prices the allocator's calls
// (allocator-churn: a per-step empty_cache); version 58 has bf16 autocast and bf16
// weights price FP32 memory-efficient attention at the bf16 rate (SDPA's
// 16-bit kernels); version 59 has cuda-graphs say when the step's shapes
// change from one step to the next; version 60 prices tiny-blocks'
// Triton fix by the bytes a thread moves and reads an integer or half2
// product's headroom on the pipe of its multiply-adds; version 61 keeps
// a tiled transpose's index arithmetic out of that product's work;
// version 62 has fp64-on-float read the FP64 pipe by its instructions
// and keep what a float version issues, tensor-cores-unused count a
// GEMM's shared loads in words, and adds barrier-stalls and the
// barrier_stall_pct metric; version 63 adds foreach-loop (a Python loop
// updating tensors one at a time outside the optimizer's step); version
// 64 has register-tile read a product whose issue slots hold it (a
// convolution's LDS per FFMA) and uncoalesced-global leave a shared
// tile's halo loads alone; version 65 has narrow-access read a window's
// shifted taps as narrow accesses and stay silent on a pointer chase's
// dependent loads and on accesses a fence after each holds; version 66 has
// GradScaler's found_inf read priced by fused-optimizer, not step-read; version
// 67 has host-read name an op's reads of its arguments, step-read the
// Python that consumes a metric's read, and cuda-graphs not priced on a
// step an op's syncs keep from capture; version 68 has cuda-graphs
// priced for the model alone where GradScaler's read splits the step;
// version 69 adds membar_stall_pct (warps' stall cycles at memory
// fences), which narrow-access reads without the source page; version 70 has torch-compile keep each
// reduction of a fused chain a kernel of its own; version 71 reads a
// kernel's 32-bit transcendentals on the XU pipe (MUFU) and names the
// pipe or issue slots that hold a compute-bound kernel whose necessary
// work is its bytes; version 72 tells GradScaler's read without the
// stack too (the unscale op before it); version 73 has torch-compile add
// back the launches of inductor's split reductions (a weight's or bias's
// gradient sum in the backward two or three kernels where eager runs one);
// version 74 leaves to torch-compile's count the kernels an attention op
// issues beside its attention kernel (inductor calls the op as eager
// does); version 75 counts the reads of blocks that read the same data
// (a grid dimension no load's address uses) once and has register-tile
// price their fix without the L2 bound; version 76 adds repeated-passes
// (loops that each read the same data again); version 77 counts
// transcendentals once a value only where threads load half again the
// bytes L1 fetches; version 78 has host-read price a frame entered once
// a micro-batch (its stretch holding the backward's ops) as syncs
// removed, not as a per-item loop; version 79 reads a load at a
// neighbour's offset from a coalesced load's base register (x[i-1]
// beside x[i], on any line) as a window tap in narrow-access and
// uncoalesced-global; version 80 has narrow-access read a grid under a
// wave that loops over the data on every SM as filled; version 81 adds item-loop (a Python loop over a
// batch's items, one at a time); version 82 prices a 64-bit division
// whose remainder feeds the next division (modular arithmetic) by the
// Barrett reduction that replaces it; version 83 prices CUDA graphs on a
// step with a per-item loop for the model alone (its forward and
// backward), the loop eager; version 84 adds fence-per-access (a
// memory fence after each access), volatile-reread (a volatile load of one
// address repeated) and dependent-loads (a latency-bound pointer chase);
// version 85 has torch-compile price a fused chain at the bytes its ops
// move (the trace's recorded shapes) at the DRAM floor, not at ATen's
// longest launch; version 86 has item-loop keep the loop's kernels'
// time above the launch floor, the floor paid once a launch of one
// iteration's worth; version 87 has fence-per-access need the source
// page (the stalls at fences alone do not tell a fence after each access
// from one at the end); version 88 adds precise-math (precise tanhf where
// tanh.approx.f32 is one MUFU op) and counts a precise tanhf's two MUFU
// ops as one necessary transcendental; version 89 has thread-divergence
// leave out the idle lanes of a branch around an atomic and
// atomic-serialization advise a Triton kernel in Triton's terms;
// version 90 has the replay start a kernel queued behind another the
// trace's GPU gap after it (none inside a CUDA graph); version 93 has
// host-read drop a deduplicated lookup's torch.unique op in its replay;
// version 94 has precise-math read IEEE division and precise powf;
// version 95 has host-read drop the gather by unique's inverse too;
// version 96 drops narrow-access where block starts hold the kernel,
// tile-shared-memory's L1 taps where float arithmetic does,
// uniform-load where DRAM sets the speed of light, and reads a split
// run of vector loads as coalesced; version 97 has channels-last keep
// the conversions around GroupNorm; version 98 has uncoalesced-global
// name a gather at bit-reversed indices and advise a Triton kernel in
// Triton's terms; version 99 has torch-compile keep a group norm's pass
// (its normalized output, its input's gradient) a pointwise kernel of
// its own after the statistics' reduction; version 100 adds bit-loop
// (bits tested one at a time where POPC, FLO or BREV does the job);
// version 101 has step-read price a loop of reads looked up on the host
// and uploaded as gathered on the GPU; version 102 adds
// neighbour-recompute (each thread computing again the values its
// neighbours compute); version 103 has bf16-autocast's advice say that
// autocast adds its casts; version 104 has torch-compile price the
// launches it keeps at inductor's launcher, not their ops' dispatch;
// version 105 leaves a precise powf's polynomials out of the FP32 pipe's
// necessary work; version 106 has cuda-graphs and step-read name
// torch.distributions' validation reads; version 107 reads a min-plus
// product's step (an FMNMX of an FADD's sum) as its multiply-add, in the
// headroom and register-tile; version 108 has precise-math read precise
// sinf and cosf (their slow-path bound test) and bit-loop leave out the
// tests of an F2I's result (sinf's quadrant bits); version 109 has
// narrow-access stay silent where warp shuffles hold an L1/shared-bound
// kernel; version 110 has volatile-reread read shared loads a loop
// repeats at an address it does not change, register-tile and
// tensor-cores-unused leave shared loads at a uniform address (no
// tile), and a load by a few threads of a warp read as no broadcast;
// version 111 has tensor-cores-unused read half inputs widened to FP32
// and multiplied as TF32, the headroom count a details page's tensor-core work from the
// source page's MMAs, ncu's shared load instructions include LDSM, and
// uncoalesced-global leave out async copies that read a tile's rows in
// slices narrower than a sector; version 112 replays autocast's casts
// at their own share of their traced time (castKeep); version 113 has
// bf16-autocast price the casts it adds as the replay prices a traced
// one (Lever.Casts); version 114 has a 16-byte load write its four
// registers in the walk that tells a gather's addresses; version 115
// has torch-compile leave a training step's forward host as it was (the
// compiled forward's own host costs what the eager one did); version 116
// adds alias-reload (a loop storing to and re-loading fixed addresses
// through pointers that may alias), and has tile-shared-memory leave
// such re-reads and uniform-load a kernel L2 limits; version 117 has
// uncoalesced-global leave stores at slots an atomic's result claims and
// thread-divergence count a header atomic's calling line as the atomic's;
// version 119 reads an L1-distance product's step (an FADD of an FADD's
// |difference|) as its multiply-add, in the headroom and register-tile;
// version 120 prices a correctly rounded sqrtf and the divisions by it
// (precise-math), the L2 work a fenced store stream keeps
// (fence-per-access), and a modulo by a divisor whose reciprocal another
// line computed (int-division);
// version 121 has torch-compile take a training step's forward's fused
// ops' dispatch off and charge its kept launches the launcher, its
// Python kept (the forward's host saving by its op mix);
// version 122 has low-occupancy leave a tail's latency to small-grid,
// bit-loop leave a loaded value masked once, uniform-load leave the math
// library's tables and small-grid a memory-limited tail under tail_waste;
// version 123 has fence-per-access leave the fences that order the
// atomics of a kernel contended atomics limit, and name sem="relaxed" on
// Triton's atomics;
// version 124 has host-read collapse a routing read's loop over experts;
// version 125 adds unpipelined-tiles (a tensor-core product's tiles
// loaded LDG → STS before a barrier, no cp.async or TMA), which
// barrier-stalls leaves such a kernel to;
// version 126 has fence-per-access count an acquire load's CCTL.IVALL
// as a fence, priced against a load stream's DRAM rate, and an inlined
// instruction's line be the user's line the page lists it under.
// version 127 has dependent-loads read a memory-bound walk whose
// load's address the same load wrote the trip before;
// version 128 prices cuda-graphs on a step whose shapes change padded to
// the largest shapes its traced steps show (Lever.Pad);
// version 129 adds call-overhead (a device function called, not
// inlined, in a hot loop), precision-round-trip (a state rounded to 16
// bits and widened back every step) and warp-redundant-work (every lane
// of a warp computing the same values from a broadcast load, whose
// repeated FLOPs the headroom no longer counts as necessary work and
// whose load uniform-load leaves);
// version 130 has repeated-passes count passes over an array the kernel
// writes in place, precise-math read a precise logf, and the headroom
// need one pass's bytes and one MUFU.LG2 a logarithm;
// version 131 names a scatter's padding collision only where the step
// adds rows by an index;
// version 132 has barrier-stalls read barriers that hold each step's
// global loads (small-grid leaving such a kernel), tensor-cores-unused
// want a loop over K, bit-loop leave a quadrant one past its F2I,
// uncoalesced-global leave a clamped tap of an aligned stream, an
// LDGSTS read as a global load and Hopper's HGMMA counted as tensor work;
// version 133 counts a DSETP as an FP64 pipe slot in fp64-on-float;
// version 134 has dependent-loads read a memory-bound walk the compiler
// unrolled (a straight-line chain of global loads, the sibling loads of
// each chased node part of it), priced by the walk's wasted sectors;
// version 135 adds shape-plans (an op's plan built for each new shape,
// priced by replay) and bf16's note on SDPA whose shapes change;
// version 136 keeps an op's long host piece (5 ms or more) at its traced
// time in the replay, not the profiler's share;
// version 137 has unpipelined-tiles read the wait on the tile loads'
// data (stall long scoreboard at the feeding loads and stores) where the
// barriers' share is small, priced by the kernel's headroom;
// shared-bank-conflict leave out replays at accesses addressed by data
// the kernel loaded, and advise a Triton kernel in Triton's terms;
// small-grid speak Triton (more programs: smaller tiles or split-K) at
// the tl.dot line and, under the SMs' count, no longer bound the gain by
// L1/shared, which ncu measures over the busy SMs alone;
// version 138 has precise-math read a precise expf (its FFMA.RM
// rounding) and fence-per-access, FenceHeld and so narrow-access take a
// fence between each pair of stores as a fence per access;
// version 139 has the headroom need one MUFU.EX2 a precise expf, not
// its rounding, reduction and scaling;
// version 140 replays cuda-graphs, on a step a sync keeps them from
// capturing, together with the lever that drops that sync (Lever.Blocked);
// version 141 has volatile-reread read a loop's volatile read-modify-write
// of one address (a sum accumulated in memory) and price the round trips
// a register accumulator removes; version 142 has narrow-access read a
// narrow load under a branch that idles lanes (at a whole warp's sectors)
// with the coalesced stream, which uncoalesced-global and
// thread-divergence leave; version 143 has volatile-reread read a strong
// load a loop issues each trip at an address it neither changes nor
// stores to (a polled flag) and price the round trips hoisting it removes;
// version 144 reads an autograd node's long host pieces as op host work
// and has shape-plans price a forward op's plans with its backward's;
// version 145 prices every lever on the plan cache's steady step: a
// plan build at a shape seen before or inside a bounded range does not
// recur, one that grows the range recurs at the window's rate; version
// 146 adds invariant-work (values every thread of the grid computes
// alike from constants, arguments and loop counters) and leaves that
// work out of the headroom's necessary work; version 147 reads a
// scalar read (int(), .item()) whose value sizes the work launched after
// it (Site.Sizes) as a shape read: host-read advises it, cuda-graphs is
// not priced on its step; version 148 has register-tile leave a kernel
// whose FMAs take their addend straight from a shared load more often
// than they accumulate (a recurrence through a table, no operand to
// reuse); version 149 has fp64-on-float read a wide float load whose
// words the kernel widens only in part (a float4's x, y and z) as float
// data; version 150 has Chased follow a compare's predicate into a SEL
// (a search's next index) and tile-shared-memory leave chased loads;
// version 151 has thread-divergence lead with the line of a loop whose
// lanes leave it at different trips; version 152 has thread-divergence
// leave predicated lanes that are no divergent path (a single-thread
// guard between barriers, a select chain, special cases all but never
// taken) and states any unexplained headroom of 1 % or more
// (verdict.Stated; was 10 %); version 153 leaves torch-compile
// unpriced where a scalar read inside the forward (a value read, or a
// shape read that sizes the work after it) precedes shapes that change
// from step to step; version 154 keeps a multi-process DataLoader's wait
// on its workers' queue whole where it falls in some steps and not all
// (the workers' bursts): the step is floored at the window's mean step,
// the wait at its traced time (workersFeed);
// version 155 has precise-math read libdevice's tanh in Triton's SASS
// (|x| held in its own register); version 156 has fp64-on-float price
// a kernel its float↔double conversions hold (their pipe's time, the
// FP64 instructions FP32 ones in float); version 157 takes a read in a
// method a forward calls (by the trace's frames: Site.Within) as inside
// the forward, and leaves torch-compile unpriced where a read whose count
// sizes the work after it (nonzero's indices) precedes shapes that
// change from step to step; version 158 compares the steps' shapes by
// what each launch's op moves (the ops' recorded shapes) as well as by
// the grids, where that finds more steps changed (Shapes.Sizes); version
// 159 has thread-divergence leave the lanes of a block's last warp its
// threads do not fill (48-thread blocks); version 160 reads a block's
// reduction tree through shared memory, a barrier a level, as its warps'
// exchange (the headroom's L1/shared need, barrier-stalls' price);
// version 161 has repeated-passes read a write pass after a reduction
// whose block's data fits on chip, and a line loading several arrays by
// one index, as re-reads, and the headroom count a re-read once where
// DRAM read it twice; version 162 has volatile-reread read a warp's
// exchange through shared memory (WarpExchanges) and price shuffles in
// its place, the headroom count its loads, not its stores, as needed;
// version 163 has bit-loop read an unrolled scan of bit positions ((v >>
// b) != 0: a predicate of v and the mask of its bits from b up) and
// price a word it walks at one FLO; version 164 has dependent-loads
// price a pointer chase whose hops each land in a sector of their own by
// laying the chain's entries out in its order (the sectors its hops move
// beyond their ideal go); version 165 has volatile-reread read strong
// loads of a small table (their sectors far above the DRAM bytes the
// kernel's other loads leave) and price their L2 work gone to L1;
// version 166 leaves tf32, bf16-autocast and bf16-weights unpriced on a
// loop whose count a read of its results decides (an adaptive solver's
// tests), and ranks cuda-graphs' loop-body graphs after step-read there;
// version 167 has thread-divergence leave the lanes a library function's
// own range split masks (libdevice tanh's branch on |x| >= 0.6 inlined in
// Triton's SASS).
// version 168 has step-read price a bulk .cpu() whose values the host's
// Python computes a metric from (Site.Consumed, Site.Calls).
// version 169 has constant-serialization find a measured constant cache at
// 80 % of its peak or more, its loads at two requests or more, whatever
// share of the stall samples waits on them.
// version 170 has fp64-on-float read a float vector whose words FP32
// arithmetic reads before the promotion as float data, and an odd
// register in an FP64 instruction as a pair's high word.
// version 171 has bf16-autocast price the bytes autocast halves beside the
// GEMMs: cuDNN's layout conversions (half of each launch beyond 7 µs) and
// the activations reading bf16 outputs (half their DRAM time), not on a
// step normalised by GroupNorm or LayerNorm.
// version 172 has invariant-work (and the headroom) take invariant values
// a fifth of the instructions where the warps spend a tenth of their
// stall samples on them, priced by the samples' share.
// version 173 has bit-loop read a word built a bit at a time (a one-bit
// merge, LOP3.LUT of two registers and a one-bit mask, at eight
// positions or more on a line) and price it at the shift-and-mask
// spread.
// version 174 has a POPC of two words' AND or XOR read as a binary
// product's step (BitProductSteps): its shared loads feed a product, not
// work of their own (l1Need), its POPCs its work on the XU pipe, and
// register-tile prices its tile.
// version 175 has tensor-cores-unused read a bf16 widened by a multiply
// by 0x10000 (IMAD.U32 R, R, 0x10000, RZ) as a half widening.
// version 176 has invariant-work (and the headroom) read a word every
// thread loads from one address as invariant, warp-redundant-work,
// precise-math and uniform-load leave it, neighbour-recompute read loads
// a block's width apart as one tap, and invariant-work price loads that
// wait behind stores at the stream line.
// version 177 has bit-loop read a loop that shifts a word right a bit a
// step until it is zero, XOR-ing or OR-ing it into another (while (g >>=
// 1) b ^= g), and price it at five shift-and-combine steps a word.
// version 178 has repeated-passes and the headroom read a Triton
// line's tl.load pointer as its loaded expression and a line of eight
// loads from one base register at distinct offsets as a loop unrolled.
// version 179 has thread-divergence leave out a guard set from the
// thread index against a constant and the lanes of a CAS loop.
// version 180 has dependent-loads read a straight-line chain of
// dependent global loads (v[p1[p2[i]]]) and price its middle links.
// version 181 has tile-shared-memory leave out a warp's broadcast loads
// (every lane the same word) from the re-reads L1 serves.
// version 182 has bit-loop read a word's bits XOR-ed together from its
// copies shifted a bit a step (a parity loop unrolled) and price the
// fix's POPC and FLO on the XU pipe.
// version 183 has tensor-cores-unused read a product of half tiles
// staged once (its shared dimension one tile) and price the FFMA loop's
// sampled time.
// version 184 has small-grid leave out a tail under the threshold of a
// kernel a pipe holds when the tail's blocks reach every SM.
// version 185 has precise-math leave out the divisions of a line whose
// text writes none (a math function's own, atan2f's).
// version 186 has constant-serialization and the headroom read warps
// that wait on the MIO queue (mio_stall_pct) whose entries are mostly an
// indexed constant table's requests as held by them, where the page has
// no constant cache counter.
// version 187 has volatile-reread read strong loads of a window's taps
// (one base, constant offsets within a warp's footprint) and price the
// L2 sectors an L1-served read would not ask for.
// version 188 has the replay keep GradScaler's read of found_inf as its
// own site where the user's reads share its frame, and end no step
// sooner than its kernels' GPU busy time as traced.
// version 189 has invariant-work read a loop over words every thread
// loads alike for a trip count its index sets (a prefix each thread
// recomputes: analysis.PrefixLoops) and price its instructions and L1
// requests gone.
// version 190 has cas-loop read an integer add swapped in by the CAS
// (IADD3 and its carry into a 64-bit CAS's new value: an int64 tally).
// version 191 has barrier-stalls read a loop that reduces over the block
// each chunk it loads (barriers and shuffles a loaded value) and price
// its reductions kept in registers.
// version 192 has dependent-loads read values boxed behind pointers (a
// load whose address is the pointer a 64-bit global load returned).
// version 193 has small-grid leave out a tail under the threshold of a
// kernel its SMs' L1 and shared memory hold, as a pipe's, when the
// tail's blocks reach every SM.
// version 194 has low-occupancy leave out a grid whose blocks retire as
// fast as the SMs start them, and narrow-access say a Triton kernel's
// fix in BLOCK_SIZE, num_warps and size_per_thread.
// version 195 has volatile-reread read strong loads of an address the
// same in every thread of the grid and price L2's work they leave.
// version 196 has TropicalSteps count the max of an absolute difference
// (an L∞-distance product's step) for register-tile and the headroom.
// version 197 has tile-shared-memory hold its reuse threshold against
// L2's traffic without an uncoalesced load's excess sectors.
// version 198 has cas-loop read an IMAD.IADD as a CAS loop's 32-bit
// integer add.
// version 199 reads an efficiency-only global access against the widest
// word that could waste so much (no more than 32 sectors a request), and
// leaves ATen's SpatialSoftMax (a softmax along an outer axis) out of
// hand-written attention.
// version 200 has precise-math's gain held to what the blocks' starts
// leave (the fix keeps the grid).
// version 201 reads a multi-process DataLoader's workers as the step's
// pace only where the step's thread is blocked on them, not where its
// get transfers a batch already there.
// version 202 has fp64-on-float keep the warps' waits on their loads'
// data (sampled stalls) in the float version's time.
// version 203 has the replay run each cast a lever adds (bf16-autocast's
// Lever.Casts) as a kernel on its op's lane too, at the trace's shortest
// kernel and the GPU's gap (replay.castGPU), not on the host alone.
// version 206 has the replay keep an op's CPU compute (a dispatch piece
// of 5 ms or more with no launch under it, not a plan build) under
// cuda-graphs and fewer dispatches: a graph replays GPU work only.
// version 207 holds precise-math's, int-division's and local-memory's
// gains to the wave floor (a DRAM round trip a wave of resident threads,
// the bytes at twice DRAM's peak): their fixes keep the grid and the
// stream.
// version 208 adds cpu-op: an aten op computing on CPU tensors on the
// step's thread, priced moved to the GPU (Lever.OnGPU); cuda-graphs'
// advice names the ops' own CPU time the replay keeps under a graph.
// version 209 holds the coalescing fixes' joint gain (KernelGain) to the
// wave floor where the fix keeps the grid: loads and stores strided
// alike, or a gather.
// version 210 has the replay pay a multi-process DataLoader's transfer a
// batch at each __next__ (the window's over the batches received, not
// where the trace bunched it), and pinned-memory take it off the step's
// thread (Lever.Receive) where the step receives the batches.
// version 211 reads a 64-bit division chain by quotients (s = ns / u.s,
// then s / u.mn) as no modular arithmetic (only a call that ran counts
// as fed; F2I.U64 writes a register pair), and int-division prices the
// test and barrier of a line's divisions whose call never ran.
// version 212 prices random gathers whose data exceeds the L2, put in
// order, at the data's size (the L2's over their hit rate) in DRAM
// (analysis.OrderedGathers), and bounds a fix that takes time off an
// SM-bound stream by DRAM where its L2 only passes DRAM's fill.
// version 213 floors register-tile's tiled time, on a kernel whose FP32
// adds and multiplies outnumber its FMAs, at its instructions' issue
// time (FP32 kept, the rest cut by the tile's load ratio), not FLOPs.
// version 215 advises local-memory on a Triton kernel in Triton's terms
// (BLOCK_SIZE, num_warps, num_stages), not __launch_bounds__.
// version 216 has bit-loop leave out a one-bit test into a predicate
// that only guards memory accesses (a masked store's mask bits).
// version 217 keeps a main-process loader's native calls' time in the
// replay where its records' costs exceed its Python (loaderNative),
// takes a tensor read back whose values size the work after it as
// host-read's sizing read (tensorRead), and ranks larger-batch after
// data-loader where the step's thread loads the data.
// version 218 counts a wavefront a line for a request whose lanes each
// touch their own line, prices tile-shared-memory on a kernel the
// L1/shared pipe limits by the wavefronts its tile removes, prices
// spills whose registers bind the warps with the freed warps, and adds
// precise-math's math left and the stream as a 2-norm.
// version 219 adds serial-loop: a per-thread loop with no memory access
// whose exit depends on a value each thread loads or on its index (or,
// for an integer recurrence, on an argument), priced as the kernel
// without it down to its memory floor.
// version 220 names the memory unit that holds a kernel above its
// ideal where the ideal is its arithmetic's (Headroom.Held): its
// headroom's sentences say that unit; its Unit stays the work's.
// version 221 bounds a step replayed with its host-to-device copies on a
// side lane (copy-overlap) by the kernels' and the copies' traced unions
// apart, not by their union in series.
// version 222 has cpu-op's fix name the op the trace shows as its
// example, not torch.multinomial whatever the op.
// version 223 has cas-loop find an integer maximum SEL'd into the CAS,
// uncoalesced-global read a run split over two statements as a split
// run and a gather whose stores on its statement waste as much as one
// index split (one finding, one gain).
// version 224 advises bf16-autocast on an inference step whose trace the
// replay prices the casts on, in place of bf16-weights in the sum.
// version 225 counts a max of products (FMUL, FMNMX) as a register
// tile's step, keeps the FMNMXs in the tile's issue floor, and has
// tile-shared-memory see a window whose re-reads miss L1 (priced by the
// L1/shared wavefronts its tile moves).
// version 226 has fp64-on-float add a CUDA kernel's memory work to its
// float math as a 2-norm where its stall samples show no load wait.
// version 227 has fused-optimizer count Adam's foreach passes by the
// kernels (18 without weight decay, AdamW's 20: addcmul reads the one
// gradient once from DRAM), not AdamW's 21 for every Adam.
// version 228 bounds serial-loop's gain by the floors it prices, not by
// the headroom, whose ideal counts the loop's arithmetic as necessary.
// version 229 has precise-math tell tanf from sinf and price __tanf's
// three MUFUs.
// version 230 keeps a multi-process DataLoader's received transfer whole
// where its get is native calls (the pipe's reads, the unpickling).
// version 231 has serial-loop take a fixed-count loop that sums a
// series (a value only added to, its terms from the loop's other state).
// version 232 has cas-loop read a swap guarded by an ordered compare as
// a minimum or maximum and a coalesced CAS loop's read and requests, and
// a memory unit at its ceiling above the memory total limit a kernel.
// version 233 keeps the wait of a whole-run window's read of its
// results after its last kernel under every lever (cuFCM's levers
// together 3.65 s → 0.65 s, host-sync 138 → 130 ms).
const VerdictVersion = 233

// Stored is what a run database keeps of a kernel's verdict beside the
// kernel record: the canonical metrics' values and the judgments.
type Stored struct {
	Metrics    map[string]float64 // never NaN
	Limiter    Limiter
	Findings   []profan.Finding
	Suppressed []Suppressed
	Skipped    []string
	Missing    []Missing
}

// Restore returns the verdict on k that a run database stored: the
// metrics' values, the limiter and the findings are the stored ones,
// never made again. What is a reading of the counters rather than a
// judgment on them (the GPU, the name's family, how each metric was
// obtained, the accesses' reading) is read again from k, as Analyze reads
// it, with opt's device.
func Restore(run *profan.Run, k *profan.Kernel, s Stored, opt Options) *Kernel {
	a := read(run, k, opt)
	a.Metrics = metrics.Stored(a.Metrics, s.Metrics)
	a.Model = crossCheck(a)
	a.Limiter = s.Limiter
	a.Findings, a.Suppressed, a.Skipped, a.Missing = s.Findings, s.Suppressed, s.Skipped, s.Missing
	return a
}

// Remade says that a stored verdict was made by an older verdict maker
// and made again from its stored counters, as a command says it once.
func (v *RunVerdict) Remade(id int64) string {
	if v.RemadeFrom == 0 {
		return ""
	}
	return fmt.Sprintf("run %d: verdict made by an older profan (v%d); re-made with the current rules; `profan migrate` stores it", id, v.RemadeFrom)
}
