package metrics

import (
	"math"
	"slices"
	"strings"
)

// Defs is the table of canonical metrics, in evaluation order: a
// definition may use those above it.
var Defs = []*Def{
	{Name: "duration", Unit: "s", Better: -1, Noisy: true,
		Doc: "kernel duration (average per launch for aggregated records)",
		NCU: "gpu__time_duration.sum, Duration", Nvprof: "gpu-trace Duration, summary Avg",
		eval: func(e *env) (float64, string, bool) {
			if !math.IsNaN(e.k.Duration) {
				return e.k.Duration, "duration", true
			}
			return e.src("gpu__time_duration.sum", "gpu__time_duration", "Duration[s]")
		}},
	{Name: "gpu_time_total", Unit: "s", Better: -1, Noisy: true,
		Doc: "time of all the launches an aggregate record stands for, as the profiler's summary printed it",
		NCU: "—", Nvprof: "summary Time; nsys cuda_gpu_kern_sum Total Time",
		eval: source(1, "gpu_time_total")},
	{Name: "gpu_time_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "the record's share of the GPU time, as the profiler's summary printed it (nvprof counts copies too; profan's groups give the share of kernel time)",
		NCU: "—", Nvprof: "summary Time(%); nsys cuda_gpu_kern_sum Time (%)",
		eval: source(1, "gpu_time_pct")},

	// Global loads and stores (C1).
	{Name: "global_load_requests", Unit: "", Better: 0,
		Doc: "warp-level global load instructions (requests at L1TEX)",
		NCU: "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum, smsp__sass_inst_executed_op_global_ld.sum", Nvprof: "global_load_requests, gld_request (event)",
		eval: source(1, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "smsp__sass_inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_ld.sum", "global_load_requests", "gld_request", "inst_executed_global_loads", "source:global/inst_executed_ld")},
	{Name: "gld_transactions", Unit: "sector", Better: -1,
		Doc: "global load transactions: 32-byte sectors requested from L1TEX (ncu) or nvprof's gld_transactions",
		NCU: "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Nvprof: "gld_transactions",
		eval: first(source(1, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_transactions", "source:global/memory_l2_theoretical_sectors_global_ld"), rule("gld_transactions"))},
	{Name: "gld_transactions_per_request", Unit: "sector", Better: -1,
		Doc: "sectors per global load request; ideal is 4 for 4-byte and 8 for 8-byte coalesced accesses",
		NCU: "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio, or sectors / requests", Nvprof: "gld_transactions_per_request",
		eval: first(source(1, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "gld_transactions_per_request"), ratio("gld_transactions", "global_load_requests"))},
	{Name: "gld_efficiency", Unit: "%", Better: +1,
		Doc: "requested global load bytes / bytes moved in sectors × 100",
		NCU: "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", Nvprof: "gld_efficiency",
		eval: first(source(1, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "gld_efficiency"),
			source(100.0/32, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", "Average Bytes Per Sector For Global Loads"), ruleWith("gld_efficiency", "gld_transactions"))},
	{Name: "gld_thread_requests", Unit: "", Better: 0,
		Doc: "thread-level global load instructions executed with predicate on (E in T_i = E·(S/8)/128)",
		NCU: "smsp__sass_thread_inst_executed_op_global_ld.sum", Nvprof: "—",
		eval: source(1, "smsp__sass_thread_inst_executed_op_global_ld.sum")},
	{Name: "gld_ideal_transactions", Unit: "sector", Better: 0,
		Doc: "fewest 32-byte sectors that could carry the requested bytes: ncu's own ideal from the source page, else gld_efficiency × gld_transactions (the 32-byte form of T_i = E·(S/8)/128)",
		NCU: "source page L2 Theoretical Sectors Global Ideal, or derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			eff, ok1 := e.val("gld_efficiency")
			n, ok2 := e.val("gld_transactions")
			if !ok1 || !ok2 {
				return e.src("source:global/memory_l2_theoretical_sectors_global_ideal_ld")
			}
			return math.Round(eff / 100 * n), "gld_efficiency × gld_transactions", true
		}},
	{Name: "gld_access_bytes", Unit: "B", Better: 0,
		Doc: "bytes each thread loads per instruction: ideal sectors × 32 / thread requests",
		NCU: "derived", Nvprof: "—",
		eval: accessBytes("gld_ideal_transactions", "gld_thread_requests")},
	{Name: "global_store_requests", Unit: "", Better: 0,
		Doc: "warp-level global store instructions",
		NCU: "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum, smsp__sass_inst_executed_op_global_st.sum", Nvprof: "global_store_requests, gst_request (event)",
		eval: source(1, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "smsp__sass_inst_executed_op_global_st.sum", "smsp__inst_executed_op_global_st.sum", "global_store_requests", "gst_request", "inst_executed_global_stores", "source:global/inst_executed_st")},
	{Name: "gst_transactions", Unit: "sector", Better: -1,
		Doc: "global store transactions (32-byte sectors)",
		NCU: "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Nvprof: "gst_transactions",
		eval: first(source(1, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst_transactions", "source:global/memory_l2_theoretical_sectors_global_st"), rule("gst_transactions"))},
	{Name: "gst_transactions_per_request", Unit: "sector", Better: -1,
		Doc: "sectors per global store request",
		NCU: "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio, or sectors / requests", Nvprof: "gst_transactions_per_request",
		eval: first(source(1, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", "gst_transactions_per_request"), ratio("gst_transactions", "global_store_requests"))},
	{Name: "gst_efficiency", Unit: "%", Better: +1,
		Doc: "requested global store bytes / bytes moved in sectors × 100",
		NCU: "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", Nvprof: "gst_efficiency",
		eval: first(source(1, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "gst_efficiency"),
			source(100.0/32, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio", "Average Bytes Per Sector For Global Stores"), ruleWith("gst_efficiency", "gst_transactions"))},
	{Name: "gst_thread_requests", Unit: "", Better: 0,
		Doc: "thread-level global store instructions executed with predicate on",
		NCU: "smsp__sass_thread_inst_executed_op_global_st.sum", Nvprof: "—",
		eval: source(1, "smsp__sass_thread_inst_executed_op_global_st.sum")},
	{Name: "gst_ideal_transactions", Unit: "sector", Better: 0,
		Doc: "fewest sectors that could carry the stored bytes: gst_efficiency × gst_transactions",
		NCU: "derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			eff, ok1 := e.val("gst_efficiency")
			n, ok2 := e.val("gst_transactions")
			if !ok1 || !ok2 {
				return e.src("source:global/memory_l2_theoretical_sectors_global_ideal_st")
			}
			return math.Round(eff / 100 * n), "gst_efficiency × gst_transactions", true
		}},
	{Name: "gst_access_bytes", Unit: "B", Better: 0,
		Doc: "bytes each thread stores per instruction: ideal sectors × 32 / thread requests",
		NCU: "derived", Nvprof: "—",
		eval: accessBytes("gst_ideal_transactions", "gst_thread_requests")},

	// Shared memory (C2).
	{Name: "shared_load_requests", Unit: "", Better: 0,
		Doc: "warp-level shared load instructions, ldmatrix (LDSM) included",
		NCU: "smsp__sass_inst_executed_op_shared_ld.sum + smsp__inst_executed_op_ldsm.sum", Nvprof: "inst_executed_shared_loads, shared_load (event)",
		eval: first(withLDSM(source(1, "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_ld.sum", "inst_executed_shared_loads", "shared_load", "source:shared/inst_executed_ld")), rule("shared_load_requests"))},
	{Name: "shared_load_transactions", Unit: "", Better: -1,
		Doc: "shared load wavefronts (nvprof: transactions); an n-way bank conflict costs n",
		NCU: "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", Nvprof: "shared_load_transactions",
		eval: first(source(1, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_load_transactions", "source:shared/memory_l1_wavefronts_shared_ld"), ruleWith("shared_load_transactions", "shared_load_requests"))},
	{Name: "shared_load_transactions_per_request", Unit: "", Better: -1,
		Doc: "wavefronts per shared load instruction: the N of an N-way bank conflict (ideal 1 for 4-byte accesses)",
		NCU: "wavefronts / instructions (not printed by ncu)", Nvprof: "shared_load_transactions_per_request",
		eval: first(source(1, "shared_load_transactions_per_request"), ratio("shared_load_transactions", "shared_load_requests"))},
	{Name: "shared_store_requests", Unit: "", Better: 0,
		Doc: "warp-level shared store instructions",
		NCU: "smsp__sass_inst_executed_op_shared_st.sum", Nvprof: "inst_executed_shared_stores, shared_store (event)",
		eval: first(source(1, "smsp__sass_inst_executed_op_shared_st.sum", "smsp__inst_executed_op_shared_st.sum", "inst_executed_shared_stores", "shared_store", "source:shared/inst_executed_st"), rule("shared_store_requests"))},
	{Name: "shared_store_transactions", Unit: "", Better: -1,
		Doc: "shared store wavefronts (nvprof: transactions)",
		NCU: "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", Nvprof: "shared_store_transactions",
		eval: first(source(1, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_store_transactions", "source:shared/memory_l1_wavefronts_shared_st"), ruleWith("shared_store_transactions", "shared_store_requests"))},
	{Name: "shared_store_transactions_per_request", Unit: "", Better: -1,
		Doc: "wavefronts per shared store instruction",
		NCU: "wavefronts / instructions", Nvprof: "shared_store_transactions_per_request",
		eval: first(source(1, "shared_store_transactions_per_request"), ratio("shared_store_transactions", "shared_store_requests"))},
	{Name: "shared_load_bank_conflicts", Unit: "", Better: -1,
		Doc: "extra shared load wavefronts caused by bank conflicts; wavefronts minus these is the ideal (2 per request for 64-bit words, which no layout avoids)",
		NCU: "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", Nvprof: "—",
		eval: first(source(1, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), ruleWith("shared_load_bank_conflicts", "shared_load_transactions"))},
	{Name: "shared_store_bank_conflicts", Unit: "", Better: -1,
		Doc: "extra shared store wavefronts caused by bank conflicts",
		NCU: "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", Nvprof: "—",
		eval: first(source(1, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), ruleWith("shared_store_bank_conflicts", "shared_store_transactions"))},
	{Name: "shared_bank_conflicts", Unit: "", Better: -1,
		Doc: "extra shared wavefronts caused by bank conflicts, loads and stores",
		NCU: "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum", Nvprof: "shared_*_transactions − shared_*_requests",
		eval: func(e *env) (float64, string, bool) {
			ld, _, ok1 := e.src("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
			st, _, ok2 := e.src("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
			if ok1 && ok2 {
				return ld + st, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum", true
			}
			lt, a := e.val("shared_load_transactions")
			lr, b := e.val("shared_load_requests")
			stt, c := e.val("shared_store_transactions")
			sr, d := e.val("shared_store_requests")
			if a && b && c && d {
				return math.Max(0, lt-lr) + math.Max(0, stt-sr), "transactions − requests", true
			}
			return math.NaN(), "", false
		}},
	{Name: "shared_efficiency", Unit: "%", Better: +1,
		Doc: "requested shared bytes / bytes moved in wavefronts × 100",
		NCU: "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", Nvprof: "shared_efficiency",
		eval: source(1, "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", "shared_efficiency")},

	// Local memory: per-thread arrays indexed at run time, register spills.
	{Name: "local_load_sectors", Unit: "sector", Better: -1,
		Doc: "32-byte sectors of local-memory loads (LDL) at L1TEX", NCU: "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", Nvprof: "local_load_transactions",
		eval: source(1, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "local_load_transactions", "source:local/memory_l2_theoretical_sectors_local_ld")},
	{Name: "local_store_sectors", Unit: "sector", Better: -1,
		Doc: "32-byte sectors of local-memory stores (STL) at L1TEX", NCU: "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", Nvprof: "local_store_transactions",
		eval: source(1, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "local_store_transactions", "source:local/memory_l2_theoretical_sectors_local_st")},
	{Name: "local_load_hit_rate", Unit: "%", Better: +1,
		Doc: "L1 hit rate of local-memory load sectors", NCU: "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct", Nvprof: "—",
		eval: source(1, "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct")},
	{Name: "local_spilling_pct", Unit: "%", Better: -1,
		Doc: "share of local-memory requests that are register spills (the rest: arrays indexed at run time); the details page's Local Memory Spilling Request Overhead", NCU: "derived__local_spilling_requests_pct", Nvprof: "—",
		eval: source(1, "derived__local_spilling_requests_pct", "Local Memory Spilling Request Overhead")},

	// L2 (C3).
	{Name: "l2_atomic_requests", Unit: "", Better: 0,
		Doc: "global atomic and reduction requests the L2 served (atomicAdd, atomicCAS, …); on one address it serves them one at a time",
		NCU: "lts__t_requests_srcunit_tex_op_{red,atom_dot_alu,atom_dot_cas}.sum", Nvprof: "—",
		eval: func(e *env) (float64, string, bool) {
			var sum float64
			var from []string
			for _, n := range l2AtomicRequests {
				if v, _, ok := e.src(n); ok {
					sum += v
					from = append(from, n)
				}
			}
			if len(from) == 0 {
				// The source page's global atomics, one request per
				// thread as the L2 counts them (a details page has no
				// L2 counters).
				return e.src("source:global/thread_inst_executed_pred_on_atom")
			}
			return sum, strings.Join(from, " + "), true
		}},
	{Name: "constant_requests", Unit: "", Better: -1,
		Doc: "requests the SM's constant cache (IDC) served: one per distinct address of a warp's constant load, so a load indexed per thread serialises into as many as the warp has lanes",
		NCU: "idc__requests.sum", Nvprof: "—",
		eval: source(1, "idc__requests.sum")},
	{Name: "constant_cache_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "the busier of the constant caches against its peak: the SM's (IDC request cycles) or the GPC's (GCC constant requests), which serves the SM's misses",
		NCU: "max(idc__request_cycles_active.avg.pct_of_peak_sustained_elapsed, gcc__cache_requests_type_constant.sum.pct_of_peak_sustained_elapsed)", Nvprof: "—",
		eval: func(e *env) (float64, string, bool) {
			i, ni, oki := e.src("idc__request_cycles_active.avg.pct_of_peak_sustained_elapsed")
			g, ng, okg := e.src("gcc__cache_requests_type_constant.sum.pct_of_peak_sustained_elapsed")
			switch {
			case oki && (!okg || i >= g):
				return i, ni, true
			case okg:
				return g, ng, true
			}
			return 0, "", false
		}},
	{Name: "l2_cycles", Unit: "", Better: 0, Noisy: true,
		Doc: "L2 cycles elapsed during the kernel (mean over the slices); without them, 0.87 × the SM's elapsed cycles, the L2:SM clock ratio of every H100 and H200 capture",
		NCU: "lts__cycles_elapsed.avg", Nvprof: "—",
		eval: first(source(1, "lts__cycles_elapsed.avg"), source(0.87, "sm__cycles_elapsed.avg", "Elapsed Cycles"))},
	{Name: "l2_read_transactions", Unit: "sector", Better: 0,
		Doc: "L2 read sectors", NCU: "lts__t_sectors_op_read.sum (+atom, red)", Nvprof: "l2_read_transactions",
		eval: source(1, "lts__t_sectors_op_read.sum", "l2_read_transactions")},
	{Name: "l2_write_transactions", Unit: "sector", Better: 0,
		Doc: "L2 write sectors", NCU: "lts__t_sectors_op_write.sum", Nvprof: "l2_write_transactions",
		eval: source(1, "lts__t_sectors_op_write.sum", "l2_write_transactions")},
	{Name: "l1_hit_rate", Unit: "%", Better: +1,
		Doc: "L1/TEX sector hit rate", NCU: "l1tex__t_sector_hit_rate.pct, L1/TEX Hit Rate", Nvprof: "global_hit_rate, l1_cache_global_hit_rate",
		eval: source(1, "l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate", "L1 Hit Rate", "global_hit_rate", "l1_cache_global_hit_rate")},
	{Name: "l2_hit_rate", Unit: "%", Better: +1,
		Doc: "L2 sector hit rate", NCU: "lts__t_sector_hit_rate.pct, L2 Hit Rate", Nvprof: "l2_tex_hit_rate, l2_l1_read_hit_rate",
		eval: source(1, "lts__t_sector_hit_rate.pct", "L2 Hit Rate", "l2_tex_hit_rate", "l2_l1_read_hit_rate")},

	// DRAM (C3).
	{Name: "dram_read_bytes", Unit: "B", Better: 0,
		Doc: "bytes read from device memory", NCU: "dram__bytes_read.sum (Pascal: dram__read_bytes)", Nvprof: "dram_read_bytes, dram_read_transactions × 32",
		eval: first(source(1, "dram__bytes_read.sum", "dram__read_bytes", "dram_read_bytes"), source(32, "dram__sectors_read.sum", "dram_read_transactions"))},
	{Name: "dram_write_bytes", Unit: "B", Better: 0,
		Doc: "bytes written to device memory", NCU: "dram__bytes_write.sum (Pascal: dram__write_bytes)", Nvprof: "dram_write_bytes, dram_write_transactions × 32",
		eval: first(source(1, "dram__bytes_write.sum", "dram__write_bytes", "dram_write_bytes"), source(32, "dram__sectors_write.sum", "dram_write_transactions"))},
	{Name: "dram_bytes", Unit: "B", Better: 0,
		Doc: "dram_read_bytes + dram_write_bytes", NCU: "dram__bytes.sum, or Memory Throughput [B/s] × duration", Nvprof: "derived",
		eval: first(sum("dram_read_bytes", "dram_write_bytes"), source(1, "dram__bytes.sum"), func(e *env) (float64, string, bool) {
			bw, _, ok := e.src("dram__bytes.sum.per_second", "Memory Throughput[B/s]")
			d, ok2 := e.val("duration")
			if !ok || !ok2 {
				return math.NaN(), "", false
			}
			return bw * d, "Memory Throughput × duration", true
		})},
	{Name: "dram_read_throughput", Unit: "B/s", Better: 0, Noisy: true,
		Doc: "device memory read bandwidth", NCU: "dram__bytes_read.sum.per_second, or bytes / duration", Nvprof: "dram_read_throughput",
		eval: first(source(1, "dram__bytes_read.sum.per_second", "dram__read_bytes_per_sec", "dram_read_throughput"), perSecond("dram_read_bytes"))},
	{Name: "dram_write_throughput", Unit: "B/s", Better: 0, Noisy: true,
		Doc: "device memory write bandwidth", NCU: "dram__bytes_write.sum.per_second, or bytes / duration", Nvprof: "dram_write_throughput",
		eval: first(source(1, "dram__bytes_write.sum.per_second", "dram__write_bytes_per_sec", "dram_write_throughput"), perSecond("dram_write_bytes"))},
	{Name: "dram_throughput", Unit: "B/s", Better: 0, Noisy: true,
		Doc: "read + write device memory bandwidth", NCU: "dram__bytes.sum.per_second, Memory Throughput [B/s]", Nvprof: "derived",
		eval: first(sum("dram_read_throughput", "dram_write_throughput"), source(1, "dram__bytes.sum.per_second", "Memory Throughput[B/s]"))},
	{Name: "dram_peak_bandwidth", Unit: "B/s", Better: 0,
		Doc: "theoretical device memory bandwidth, one per GPU: memory clock × bus width × data rate from the GPU table for the identified GPU, else ncu's dram__bytes.sum.peak_sustained × the memory clock attribute (× dram__cycles_elapsed.avg.per_second, which varies from kernel to kernel, only when the attribute is absent)",
		NCU: "GPU table, else dram__bytes.sum.peak_sustained × device__attribute_memory_clock_rate", Nvprof: "GPU table",
		eval: func(e *env) (float64, string, bool) {
			if e.dev.PeakBandwidth > 0 {
				return e.dev.PeakBandwidth, "GPU table: " + e.dev.Name, true
			}
			p, _, ok1 := e.src("dram__bytes.sum.peak_sustained")
			if !ok1 || p <= 0 {
				return math.NaN(), "", false
			}
			if khz, _, ok := e.src("device__attribute_memory_clock_rate"); ok && khz > 0 {
				return p * khz * 1e3, "dram__bytes.sum.peak_sustained × device__attribute_memory_clock_rate", true
			}
			if c, _, ok := e.src("dram__cycles_elapsed.avg.per_second"); ok && c > 0 {
				return p * c, "dram__bytes.sum.peak_sustained × dram__cycles_elapsed.avg.per_second", true
			}
			return math.NaN(), "", false
		}},
	{Name: "dram_peak_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "dram_throughput / dram_peak_bandwidth × 100", NCU: "derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			v, from, ok := ratio("dram_throughput", "dram_peak_bandwidth")(e)
			return v * 100, from, ok
		}},
	{Name: "dram_utilization", Unit: "%", Better: 0, Noisy: true,
		Doc: "device memory throughput as ncu reports it against its own peak (nvprof: utilization level × 10)",
		NCU: "dram__throughput.avg.pct_of_peak_sustained_elapsed, DRAM Throughput [%], SOL FB", Nvprof: "dram_utilization (0–10 level)",
		eval: first(source(1, "dram__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput[%]", "SOL FB[%]", "fbpa__sol_pct"), source(10, "dram_utilization"))},
	{Name: "l2_utilization", Unit: "%", Better: 0, Noisy: true,
		Doc: "L2 cache use as nvprof's utilization level (0–10, a tenth of the peak each) × 10; ncu's is l2_sol_pct",
		NCU: "—", Nvprof: "l2_utilization (0–10 level)",
		eval: level("l2_utilization")},
	{Name: "l1_utilization", Unit: "%", Better: 0, Noisy: true,
		Doc: "L1/shared use as the busiest of nvprof's L1, shared and texture utilization levels × 10; ncu's is l1_sol_pct",
		NCU: "—", Nvprof: "l1_shared_utilization, shared_utilization, tex_utilization (0–10 levels)",
		eval: level("l1_shared_utilization", "shared_utilization", "tex_utilization")},
	{Name: "fu_utilization", Unit: "%", Better: 0, Noisy: true,
		Doc: "SM use as the busiest of nvprof's function-unit utilization levels × 10; ncu's is compute_throughput_pct",
		NCU: "—", Nvprof: "alu_fu_utilization, single/double_precision_fu_utilization, special_fu_utilization, ldst_fu_utilization, cf_fu_utilization, tex_fu_utilization (0–10 levels)",
		eval: level("alu_fu_utilization", "single_precision_fu_utilization", "double_precision_fu_utilization",
			"special_fu_utilization", "ldst_fu_utilization", "cf_fu_utilization", "tex_fu_utilization")},

	// Compute and the roofline (C4).
	{Name: "inst_executed", Unit: "inst", Better: 0,
		Doc: "warp instructions executed", NCU: "smsp__inst_executed.sum, Executed Instructions", Nvprof: "inst_executed",
		eval: source(1, "smsp__inst_executed.sum", "sm__inst_executed.sum", "Executed Instructions", "inst_executed")},
	{Name: "inst_issued", Unit: "inst", Better: 0,
		Doc: "warp instructions issued (replays included)", NCU: "smsp__inst_issued.sum, Issued Instructions", Nvprof: "inst_issued",
		eval: source(1, "smsp__inst_issued.sum", "sm__inst_issued.sum", "Issued Instructions", "inst_issued", "inst_issued1")},
	{Name: "flop_count_sp", Unit: "FLOP", Better: 0,
		Doc: "single-precision operations: fadd + fmul + 2 × ffma", NCU: "smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum, or .sum.per_cycle_elapsed × smsp__cycles_elapsed.avg (--set full), or .sum.per_second × duration", Nvprof: "flop_count_sp",
		eval: first(source(1, "flop_count_sp"), flops("f"))},
	{Name: "flop_count_dp", Unit: "FLOP", Better: 0,
		Doc: "double-precision operations: dadd + dmul + 2 × dfma", NCU: "smsp__sass_thread_inst_executed_op_{dadd,dmul,dfma}_pred_on.sum, or the per-cycle and per-second forms", Nvprof: "flop_count_dp",
		eval: first(source(1, "flop_count_dp"), flops("d"))},
	{Name: "flop_count_tensor", Unit: "FLOP", Better: 0,
		Doc: "tensor-core operations, every source type (an MMA's multiply-add counts 2)", NCU: "sm__ops_path_tensor_src_*.sum (raw page, --set full)", Nvprof: "—",
		eval: tensorFlops},
	{Name: "flop_throughput", Unit: "FLOP/s", Better: +1, Noisy: true,
		Doc: "(flop_count_sp + flop_count_dp + flop_count_tensor) / duration", NCU: "derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			sp, ok1 := e.val("flop_count_sp")
			dp, ok2 := e.val("flop_count_dp")
			tc, ok4 := e.val("flop_count_tensor")
			d, ok3 := e.val("duration")
			if ok4 && ok3 && d > 0 && tc > 0 {
				return (nz(sp) + nz(dp) + tc) / d, "(FP32 + FP64 + tensor FLOPs) / duration", true
			}
			if !(ok1 || ok2) || !ok3 || d <= 0 {
				// The roofline section alone: operations per cycle times
				// the SM clock; else the share of the peaks ncu's rule
				// text gives.
				if v, from, ok := flopRate(e); ok {
					return v, from, true
				}
				return ruleFlopRate(e)
			}
			return (nz(sp) + nz(dp)) / d, "FLOPs / duration", true
		}},
	{Name: "arithmetic_intensity", Unit: "FLOP/B", Better: 0,
		Doc: "FLOPs per DRAM byte: (flop_count_sp + flop_count_dp + flop_count_tensor) / dram_bytes", NCU: "derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			sp, ok1 := e.val("flop_count_sp")
			dp, ok2 := e.val("flop_count_dp")
			b, ok3 := e.val("dram_bytes")
			if tc, ok := e.val("flop_count_tensor"); ok && tc > 0 && ok3 && b > 0 {
				return (nz(sp) + nz(dp) + tc) / b, "(FP32 + FP64 + tensor FLOPs) / dram_bytes", true
			}
			if !(ok1 || ok2) || !ok3 || b <= 0 {
				// The roofline section alone: achieved FLOP/s over its
				// DRAM bandwidth.
				f, _, okF := flopRate(e)
				bw, _, okB := e.src("DRAM Bandwidth[B/s]", "dram__bytes.sum.per_second")
				if !okF || !okB || bw <= 0 {
					// The details page's rule text: its share of the
					// peaks over the DRAM bytes moved per second.
					f, _, okF := ruleFlopRate(e)
					d, okD := e.val("duration")
					if !okF || !ok3 || !okD || b <= 0 || d <= 0 {
						return math.NaN(), "", false
					}
					return f * d / b, estimatePrefix + "FLOP/s from ncu rule SOLFPRoofline × duration / dram_bytes", true
				}
				return f / bw, "FLOP/s / DRAM Bandwidth (roofline section)", true
			}
			return (nz(sp) + nz(dp)) / b, "FLOPs / dram_bytes", true
		}},
	{Name: "instruction_byte_ratio", Unit: "inst/B", Better: 0,
		Doc: "thread instructions per DRAM byte: #SMs·32·inst_issued(per SM) : 32 B·(dram reads + writes), i.e. 32 × warp instructions / DRAM bytes; compare with the device balance",
		NCU: "derived", Nvprof: "derived",
		eval: func(e *env) (float64, string, bool) {
			i, ok := e.val("inst_issued")
			from := "32 × inst_issued / dram_bytes"
			if !ok {
				i, ok = e.val("inst_executed")
				from = "32 × inst_executed / dram_bytes"
			}
			b, ok2 := e.val("dram_bytes")
			if !ok || !ok2 || b <= 0 {
				return math.NaN(), "", false
			}
			return 32 * i / b, from, true
		}},
	{Name: "machine_balance", Unit: "inst/B", Better: 0,
		Doc: "the device's balanced instruction:byte ratio: peak thread instructions per second / peak DRAM bytes per second",
		NCU: "GPU table", Nvprof: "GPU table",
		eval: func(e *env) (float64, string, bool) {
			bw, ok := e.val("dram_peak_bandwidth")
			if !ok || e.dev.PeakInst <= 0 {
				return math.NaN(), "", false
			}
			return e.dev.PeakInst / bw, "peak inst/s / dram_peak_bandwidth", true
		}},

	// Occupancy, launch and control flow (C5).
	{Name: "achieved_occupancy", Unit: "", Better: +1, Noisy: true,
		Doc: "active warps / maximum warps per SM, as a fraction 0–1 like nvprof (ncu prints percent)",
		NCU: "sm__warps_active.avg.pct_of_peak_sustained_active, Achieved Occupancy", Nvprof: "achieved_occupancy",
		eval: first(source(0.01, "sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy[%]"), source(1, "achieved_occupancy"))},
	{Name: "theoretical_occupancy", Unit: "", Better: +1,
		Doc: "occupancy the launch configuration allows, fraction 0–1",
		NCU: "sm__maximum_warps_per_active_cycle_pct, Theoretical Occupancy", Nvprof: "—",
		eval: source(0.01, "sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy[%]")},
	{Name: "occupancy_limit_registers", Unit: "block", Better: 0,
		Doc: "blocks per SM the registers per thread allow", NCU: "launch__occupancy_limit_registers, Block Limit Registers", Nvprof: "—",
		eval: source(1, "launch__occupancy_limit_registers", "Block Limit Registers")},
	{Name: "occupancy_limit_shared_mem", Unit: "block", Better: 0,
		Doc: "blocks per SM the shared memory per block allows", NCU: "launch__occupancy_limit_shared_mem, Block Limit Shared Mem", Nvprof: "—",
		eval: source(1, "launch__occupancy_limit_shared_mem", "Block Limit Shared Mem")},
	{Name: "occupancy_limit_warps", Unit: "block", Better: 0,
		Doc: "blocks per SM the block size (warps per block) allows", NCU: "launch__occupancy_limit_warps, Block Limit Warps", Nvprof: "—",
		eval: source(1, "launch__occupancy_limit_warps", "Block Limit Warps")},
	{Name: "occupancy_limit_blocks", Unit: "block", Better: 0,
		Doc: "blocks per SM the SM's block slots allow", NCU: "launch__occupancy_limit_blocks, Block Limit SM", Nvprof: "—",
		eval: source(1, "launch__occupancy_limit_blocks", "Block Limit SM")},
	{Name: "sm_efficiency", Unit: "%", Better: +1, Noisy: true,
		Doc: "share of time at least one warp is active on an SM", NCU: "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed", Nvprof: "sm_efficiency",
		eval: source(1, "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "sm_efficiency")},
	{Name: "branch_efficiency", Unit: "%", Better: +1,
		Doc: "uniform branches / all branches × 100", NCU: "smsp__sass_average_branch_targets_threads_uniform.pct, Branch Efficiency", Nvprof: "branch_efficiency",
		eval: source(1, "smsp__sass_average_branch_targets_threads_uniform.pct", "Branch Efficiency[%]", "branch_efficiency")},
	{Name: "warp_execution_efficiency", Unit: "%", Better: +1,
		Doc: "average active threads per warp instruction / 32 × 100",
		NCU: "smsp__thread_inst_executed_per_inst_executed.ratio, Avg. Active Threads Per Warp", Nvprof: "warp_execution_efficiency",
		eval: first(source(1, "warp_execution_efficiency", "smsp__thread_inst_executed_per_inst_executed.pct"),
			source(100.0/32, "smsp__thread_inst_executed_per_inst_executed.ratio", "Avg. Active Threads Per Warp"))},
	{Name: "warp_nonpred_execution_efficiency", Unit: "%", Better: +1,
		Doc: "average threads per warp instruction that are active and not predicated off / 32 × 100 (a branch the compiler predicated: both sides issue, the lanes of the other side off)",
		NCU: "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio, Avg. Not Predicated Off Threads Per Warp", Nvprof: "warp_nonpred_execution_efficiency",
		eval: first(source(1, "warp_nonpred_execution_efficiency", "smsp__thread_inst_executed_pred_on_per_inst_executed.pct"),
			source(100.0/32, "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", "Avg. Not Predicated Off Threads Per Warp"))},
	{Name: "branch_instructions", Unit: "inst", Better: 0,
		Doc: "warp-level branch instructions executed (0: the kernel has no branch, whatever branch_efficiency says)",
		NCU: "smsp__inst_executed_op_branch.sum, smsp__sass_inst_executed_op_branch.sum, Branch Instructions", Nvprof: "—",
		eval: source(1, "smsp__inst_executed_op_branch.sum", "smsp__sass_inst_executed_op_branch.sum", "Branch Instructions")},
	{Name: "divergent_branches", Unit: "", Better: -1,
		Doc: "divergent branch targets per SM sub-partition (ncu's average; 0: no branch diverged)",
		NCU: "smsp__sass_branch_targets_threads_divergent.avg, Avg. Divergent Branches", Nvprof: "—",
		eval: source(1, "smsp__sass_branch_targets_threads_divergent.avg", "Avg. Divergent Branches")},
	{Name: "waves_per_sm", Unit: "", Better: 0,
		Doc: "launch waves: blocks / (SMs × blocks per SM)", NCU: "launch__waves_per_multiprocessor, Waves Per SM", Nvprof: "—",
		eval: source(1, "launch__waves_per_multiprocessor", "Waves Per SM")},
	{Name: "sm_count", Unit: "SM", Better: 0,
		Doc: "multiprocessors on the device", NCU: "device__attribute_multiprocessor_count, # SMs", Nvprof: "GPU table",
		eval: func(e *env) (float64, string, bool) {
			if v, from, ok := e.src("device__attribute_multiprocessor_count", "# SMs"); ok {
				return v, from, true
			}
			if e.dev.SMs > 0 {
				return float64(e.dev.SMs), "GPU table: " + e.dev.Name, true
			}
			return math.NaN(), "", false
		}},
	{Name: "barrier_stall_pct", Unit: "%", Better: -1, Noisy: true,
		Doc: "share of a warp's cycles between two issued instructions spent waiting at a CTA barrier (__syncthreads): stalled_barrier / warp cycles per issued instruction", NCU: "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio, or ncu rule CPIStall's text (details page)", Nvprof: "stall_sync",
		eval: first(func(e *env) (float64, string, bool) {
			b, _, ok1 := e.src("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio")
			w, _, ok2 := e.src("smsp__average_warp_latency_per_inst_issued.ratio")
			if !ok1 || !ok2 || !(w > 0) || b < 0 {
				return math.NaN(), "", false
			}
			return 100 * math.Min(1, b/w), "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio", true
		}, source(1, "stall_sync"), rule("barrier_stall_pct"))},
	{Name: "membar_stall_pct", Unit: "%", Better: -1, Noisy: true,
		Doc: "share of a warp's cycles between two issued instructions spent waiting at a memory fence (__threadfence, MEMBAR): stalled_membar / warp cycles per issued instruction", NCU: "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio, or ncu rule CPIStall's text (details page)", Nvprof: "—",
		eval: first(func(e *env) (float64, string, bool) {
			b, _, ok1 := e.src("smsp__average_warps_issue_stalled_membar_per_issue_active.ratio")
			w, _, ok2 := e.src("smsp__average_warp_latency_per_inst_issued.ratio")
			if !ok1 || !ok2 || !(w > 0) || b < 0 {
				return math.NaN(), "", false
			}
			return 100 * math.Min(1, b/w), "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio", true
		}, rule("membar_stall_pct"))},
	{Name: "mio_stall_pct", Unit: "%", Better: -1, Noisy: true,
		Doc: "share of a warp's cycles between two issued instructions spent waiting for the MIO instruction queue to have room (shared memory, constant loads, special math, dynamic branches): stalled_mio_throttle / warp cycles per issued instruction", NCU: "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio, or ncu rule CPIStall's text (details page)", Nvprof: "—",
		eval: first(func(e *env) (float64, string, bool) {
			b, _, ok1 := e.src("smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio")
			w, _, ok2 := e.src("smsp__average_warp_latency_per_inst_issued.ratio")
			if !ok1 || !ok2 || !(w > 0) || b < 0 {
				return math.NaN(), "", false
			}
			return 100 * math.Min(1, b/w), "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio / smsp__average_warp_latency_per_inst_issued.ratio", true
		}, rule("mio_stall_pct"))},
	{Name: "compute_throughput_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "SM throughput against its peak (ncu speed of light)", NCU: "sm__throughput.avg.pct_of_peak_sustained_elapsed, Compute (SM) Throughput, SM [%]", Nvprof: "—",
		eval: source(1, "sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput[%]", "SM [%][%]", "sm__sol_pct")},
	{Name: "dram_sol_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "DRAM throughput against its peak (ncu speed of light)", NCU: "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed, DRAM Throughput [%]", Nvprof: "—",
		eval: source(1, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput[%]")},
	{Name: "l2_sol_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "L2 cache throughput against its peak (ncu speed of light)", NCU: "lts__throughput.avg.pct_of_peak_sustained_elapsed, L2 Cache Throughput [%]", Nvprof: "—",
		eval: source(1, "lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 Cache Throughput[%]")},
	{Name: "l1_sol_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "L1/TEX cache and shared memory throughput against its peak (ncu speed of light)", NCU: "l1tex__throughput.avg.pct_of_peak_sustained_active, L1/TEX Cache Throughput [%]", Nvprof: "—",
		eval: l1Throughput},
	{Name: "memory_throughput_pct", Unit: "%", Better: 0, Noisy: true,
		Doc: "memory-system throughput against its peak (ncu speed of light)", NCU: "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed, Memory Throughput [%], Memory [%]", Nvprof: "—",
		eval: source(1, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput[%]", "Memory [%][%]")},
}

// flops counts p-precision operations ("f" or "d") from ncu's per-opcode
// thread instruction counters: add + mul + 2 × fma. ncu exports each
// counter in one of three forms, tried in order: the count (.sum); the
// rate per elapsed cycle (.sum.per_cycle_elapsed, as --set full and the
// roofline sections collect it) times the elapsed cycles of the same unit
// (smsp__cycles_elapsed.avg); the rate per second (.sum.per_second) times
// the duration.
func flops(p string) func(e *env) (float64, string, bool) {
	// The counters' names are made once, not per kernel.
	pre := "smsp__sass_thread_inst_executed_op_" + p
	ops := []struct {
		names opNames
		mul   float64
	}{{opNamesOf(pre + "add_pred_on"), 1}, {opNamesOf(pre + "mul_pred_on"), 1}, {opNamesOf(pre + "fma_pred_on"), 2}}
	return func(e *env) (float64, string, bool) {
		var total float64
		var forms []string
		any := false
		for _, op := range ops {
			v, form, ok := opCount(e, op.names)
			if !ok {
				continue
			}
			any = true
			total += op.mul * v
			if !slices.Contains(forms, form) {
				forms = append(forms, form)
			}
		}
		if !any {
			return math.NaN(), "", false
		}
		return total, pre + "{add,mul,fma}_pred_on" + strings.Join(forms, " or "), true
	}
}

// tensorPrefix names ncu's tensor-pipe operation counters per source
// type (sm__ops_path_tensor_src_bf16_dst_fp32.sum, ..._src_tf32...,
// ..._src_fp8...); the per-instruction ones (sm__ops_path_tensor_op_*)
// count the same operations again and are left out.
const tensorPrefix = "sm__ops_path_tensor_src_"

// tensorFlops sums the tensor pipe's operations over every source type.
func tensorFlops(e *env) (float64, string, bool) {
	total, any := 0.0, false
	for _, m := range e.k.Metrics {
		if len(m.Name) > len(tensorPrefix) && m.Name[:len(tensorPrefix)] == tensorPrefix && strings.HasSuffix(m.Name, ".sum") &&
			!strings.Contains(m.Name[len(tensorPrefix):len(m.Name)-len(".sum")], ".") && !math.IsNaN(m.Value) {
			total += m.Value
			any = true
		}
	}
	if !any {
		return math.NaN(), "", false
	}
	return total, tensorPrefix + "*.sum", true
}

// l2AtomicRequests are the L2's counters of global atomics, by kind.
var l2AtomicRequests = []string{
	"lts__t_requests_srcunit_tex_op_red.sum",
	"lts__t_requests_srcunit_tex_op_atom_dot_alu.sum",
	"lts__t_requests_srcunit_tex_op_atom_dot_cas.sum",
}

// roofline operation counters of flopRate, per precision.
var flopRateNames = func() (n [2][4]string) {
	for i, p := range []string{"F", "D"} {
		n[i] = [4]string{
			"Predicated-On " + p + "FMA Operations Per Cycle",
			"Predicated-On " + p + "FMA Thread Instructions Executed Per Cycle",
			"Predicated-On " + p + "ADD Thread Instructions Executed Per Cycle",
			"Predicated-On " + p + "MUL Thread Instructions Executed Per Cycle",
		}
	}
	return n
}()

// flopRate is the FP32 + FP64 operation rate as ncu's roofline section
// exports it on the details page: operations per cycle ("Predicated-On
// FFMA Operations Per Cycle" counts an FMA twice; adds and multiplies are
// thread instructions per cycle) times the SM clock.
func flopRate(e *env) (float64, string, bool) {
	hz, _, ok := e.src("SM Frequency[Hz]")
	if !ok || hz <= 0 {
		return math.NaN(), "", false
	}
	var perCycle float64
	any := false
	for _, n := range flopRateNames {
		if v, _, ok := e.src(n[0]); ok {
			perCycle, any = perCycle+v, true
		} else if v, _, ok := e.src(n[1]); ok {
			perCycle, any = perCycle+2*v, true
		}
		for _, name := range n[2:] {
			if v, _, ok := e.src(name); ok {
				perCycle, any = perCycle+v, true
			}
		}
	}
	if !any {
		return math.NaN(), "", false
	}
	return perCycle * hz, "roofline section: operations per cycle × SM Frequency", true
}

// opNames are the three forms of one thread-instruction counter.
type opNames struct{ sum, perCycle, perSecond string }

func opNamesOf(base string) opNames {
	return opNames{base + ".sum", base + ".sum.per_cycle_elapsed", base + ".sum.per_second"}
}

// opCount reads one thread-instruction counter in whichever form the
// export has it (see flops), and names the form.
func opCount(e *env, n opNames) (float64, string, bool) {
	if v, _, ok := e.src(n.sum); ok {
		return v, ".sum", true
	}
	if r, _, ok := e.src(n.perCycle); ok {
		if c, _, ok := e.src("smsp__cycles_elapsed.avg"); ok && c > 0 {
			return r * c, ".sum.per_cycle_elapsed × smsp__cycles_elapsed.avg", true
		}
	}
	if r, _, ok := e.src(n.perSecond); ok {
		if d, ok := e.val("duration"); ok && d > 0 {
			return r * d, ".sum.per_second × duration", true
		}
	}
	return math.NaN(), "", false
}

// accessBytes infers the bytes per thread of an access from the ideal
// sector count and the thread-level instruction count.
func accessBytes(ideal, threads string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		s, ok1 := e.val(ideal)
		n, ok2 := e.val(threads)
		if !ok1 || !ok2 || n <= 0 {
			return math.NaN(), "", false
		}
		return s * 32 / n, ideal + " × 32 / " + threads, true
	}
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// ruleFlopRate is the FP32 + FP64 rate from the shares of the device's
// peaks that ncu's SOLFPRoofline rule quotes, in whole percents: an
// estimate, known to half a point of each peak, and none where that half
// point is more than 5% of the rate (a kernel at 3% of the peak is
// anywhere from 2.5 to 3.5%).
func ruleFlopRate(e *env) (float64, string, bool) {
	sp, ok1 := e.rules.Get("fp32_peak_pct")
	dp, ok2 := e.rules.Get("fp64_peak_pct")
	if !ok1 || !ok2 || e.dev.PeakFP32 <= 0 {
		return math.NaN(), "", false
	}
	f := sp.Value/100*e.dev.PeakFP32 + dp.Value/100*e.dev.PeakFP64
	halfPoint := 0.005 * e.dev.PeakFP32
	if dp.Value > 0 {
		halfPoint += 0.005 * e.dev.PeakFP64
	}
	if !(f > 0) || halfPoint > 0.05*f {
		return math.NaN(), "", false
	}
	return f, estimatePrefix + "ncu rule SOLFPRoofline (whole percents of the FP32 and FP64 peaks)", true
}
