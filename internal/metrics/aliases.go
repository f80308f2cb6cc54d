package metrics

// nvprofDescriptions maps the descriptions that older nvprof versions
// print instead of metric names in wide per-launch tables (Kepler era,
// --print-gpu-trace with --metrics) to the metric names.
var nvprofDescriptions = map[string]string{
	"Global Memory Load Efficiency":                "gld_efficiency",
	"Global Memory Store Efficiency":               "gst_efficiency",
	"Global Load Transactions Per Request":         "gld_transactions_per_request",
	"Global Store Transactions Per Request":        "gst_transactions_per_request",
	"Shared Memory Load Transactions Per Request":  "shared_load_transactions_per_request",
	"Shared Memory Store Transactions Per Request": "shared_store_transactions_per_request",
	"Global Load Transactions":                     "gld_transactions",
	"Global Store Transactions":                    "gst_transactions",
	"Shared Load Transactions":                     "shared_load_transactions",
	"Shared Store Transactions":                    "shared_store_transactions",
	"Shared Memory Efficiency":                     "shared_efficiency",
	"Device Memory Read Transactions":              "dram_read_transactions",
	"Device Memory Write Transactions":             "dram_write_transactions",
	"Device Memory Read Throughput":                "dram_read_throughput",
	"Device Memory Write Throughput":               "dram_write_throughput",
	"Device Memory Utilization":                    "dram_utilization",
	"L2 Read Transactions":                         "l2_read_transactions",
	"L2 Write Transactions":                        "l2_write_transactions",
	"Achieved Occupancy":                           "achieved_occupancy",
	"Warp Execution Efficiency":                    "warp_execution_efficiency",
	"Warp Non-Predicated Execution Efficiency":     "warp_nonpred_execution_efficiency",
	"Branch Efficiency":                            "branch_efficiency",
	"Instructions Executed":                        "inst_executed",
	"Instructions Issued":                          "inst_issued",
	"Floating Point Operations(Single Precision)":  "flop_count_sp",
	"Floating Point Operations(Double Precision)":  "flop_count_dp",
	"L1 Global Hit Rate":                           "l1_cache_global_hit_rate",
	"Multiprocessor Activity":                      "sm_efficiency",
}

// descriptionsOf is the inverse: the descriptions of an nvprof name.
var descriptionsOf = func() map[string][]string {
	m := map[string][]string{}
	for d, n := range nvprofDescriptions {
		m[n] = append(m[n], d)
	}
	return m
}()
