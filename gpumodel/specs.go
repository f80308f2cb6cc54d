package gpumodel

// The GPU table. Each entry gives the product's own numbers (SM count,
// lanes, clocks, memory) and its source; per-compute-capability limits
// (warps, blocks, registers, banks, shared memory) are filled in by
// withLimits from the CUDA C Programming Guide's feature table.
//
// Memory clocks follow CUDA's convention (see Spec.MemClockMHz): half the
// per-pin data rate, DataRate 2. Where NVIDIA gives only the bandwidth and
// the bus width (HBM3e parts, recent GeForce), the clock is derived as
// bandwidth / (width/8) / 2 and says so. Bandwidths are the vendor's GB/s.
//
// Abbreviations in the source notes: DS = NVIDIA datasheet or product page,
// WP = NVIDIA architecture whitepaper, PG = CUDA C Programming Guide.

const (
	kiB = 1 << 10
	miB = 1 << 20
)

var specs = []*Spec{
	// --- Tesla architecture (CC 1.x): no cache for global loads. ---

	// G80. DS: 128 SPs at 1350 MHz shader clock, 900 MHz GDDR3 on 384 bits
	// = 86.4 GB/s. NVIDIA's 518 GFLOP/s counts MAD+MUL (see PeakFP32).
	withLimits(Spec{
		Name: "GeForce 8800 GTX", Arch: "Tesla", Chip: "G80", CC: "1.0",
		SMs: 16, CoresPerSM: 8, FP64PerSM: 0, SMClockMHz: 1350,
		MemClockMHz: 900, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 86.4,
	}),
	// G80 Quadro. DS: 128 SPs at 1350 MHz, 800 MHz GDDR3 on 384 bits =
	// 76.8 GB/s; the Harris's CUDA performance slides rounds it to "77 GB/s" (CC 1.0).
	withLimits(Spec{
		Name: "Quadro FX 5600", Arch: "Tesla", Chip: "G80", CC: "1.0",
		SMs: 16, CoresPerSM: 8, FP64PerSM: 0, SMClockMHz: 1350,
		MemClockMHz: 800, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 76.8,
	}),
	// GT200. Harris's CUDA performance slides: 1107 MHz × 512/8 × 2 = 141.7 GB/s, "specs
	// report 141 GB/s", CC 1.3; 30 SMs × 8 SPs ("240 SP cores") at
	// 1296 MHz, one FP64 unit per SM (77.8 GFLOP/s).
	withLimits(Spec{
		Name: "GeForce GTX 280", Arch: "Tesla", Chip: "GT200", CC: "1.3",
		SMs: 30, CoresPerSM: 8, FP64PerSM: 1, SMClockMHz: 1296,
		MemClockMHz: 1107, BusWidthBits: 512, DataRate: 2, DatasheetBandwidth: 141.7,
	}),

	// --- Fermi (CC 2.0): 14 or 16 SMs × 32 lanes, FP64 at half rate on Tesla boards. ---

	// GF100. DS: 448 cores at 1.15 GHz, 1030 GFLOP/s SP, 515 DP; 1500 MHz
	// GDDR5 on 384 bits = 144 GB/s (Harris's CUDA performance slides' "144 GB/s peak (C2050)").
	withLimits(Spec{
		Name: "Tesla C2050", Aliases: []string{"Tesla C2070"}, Arch: "Fermi", Chip: "GF100", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1500, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 144, L2Bytes: 768 * kiB,
	}),
	// GF100. How-to-measure-performance article: "1,546 MHz ... 384-bit ... 148 GB/s"; 1030 SP
	// and 515 DP GFLOP/s.
	withLimits(Spec{
		Name: "Tesla M2050", Aliases: []string{"Tesla M2070"}, Arch: "Fermi", Chip: "GF100", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1546, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 148, L2Bytes: 768 * kiB,
	}),
	// GF110. DS: 448 cores at 1.15 GHz, 1566 MHz GDDR5 on 384 bits = 150 GB/s.
	withLimits(Spec{
		Name: "Tesla M2075", Arch: "Fermi", Chip: "GF110", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1566, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 150, L2Bytes: 768 * kiB,
	}),
	// GF110. CPSC 424 GPU lecture: 1331 SP / 665 DP GFLOP/s, 177 GB/s; DS: 512
	// cores at 1.3 GHz, 1848 MHz GDDR5 on 384 bits (177.4 GB/s).
	withLimits(Spec{
		Name: "Tesla M2090", Arch: "Fermi", Chip: "GF110", CC: "2.0",
		SMs: 16, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1300,
		MemClockMHz: 1848, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 177, L2Bytes: 768 * kiB,
	}),

	// --- Kepler (CC 3.x): 192 lanes per SMX; GK110/GK210 have 64 FP64 lanes. ---

	// GK104. DS: 1152 cores, 980/1033 MHz, 6.0 Gb/s GDDR5 on 256 bits = 192.2 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 760", Arch: "Kepler", Chip: "GK104", CC: "3.0",
		SMs: 6, CoresPerSM: 192, FP64PerSM: 8, SMClockMHz: 1033, BaseClockMHz: 980,
		MemClockMHz: 3004, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 192.2, L2Bytes: 512 * kiB,
	}),
	// GK110. DS: 2496 cores at 706 MHz, 3.52 SP / 1.17 DP TFLOP/s, 5.2 Gb/s
	// GDDR5 on 320 bits = 208 GB/s; CPSC 424 GPU lecture: 1.25 MB L2. The K20c
	// (active cooling) and K20m (passive) are the same GPU.
	withLimits(Spec{
		Name: "Tesla K20", Aliases: []string{"Tesla K20m"}, Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 13, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 706,
		MemClockMHz: 2600, BusWidthBits: 320, DataRate: 2, DatasheetBandwidth: 208, L2Bytes: 1280 * kiB,
	}),
	// GK110, see Tesla K20.
	withLimits(Spec{
		Name: "Tesla K20c", Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 13, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 706,
		MemClockMHz: 2600, BusWidthBits: 320, DataRate: 2, DatasheetBandwidth: 208, L2Bytes: 1280 * kiB,
	}),
	// GK110. DS: 2688 cores at 732 MHz, 3.95 SP / 1.31 DP TFLOP/s, 5.2 Gb/s
	// GDDR5 on 384 bits = 250 GB/s (CPSC 424 GPU lecture: "K20X 250 GB/s", 1.5 MB L2).
	withLimits(Spec{
		Name: "Tesla K20X", Aliases: []string{"Tesla K20Xm"}, Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 14, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 732,
		MemClockMHz: 2600, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 250, L2Bytes: 1536 * kiB,
	}),
	// GK110. DS: 2688 cores, 837/876 MHz, 6.0 Gb/s GDDR5 on 384 bits =
	// 288.4 GB/s. Full-rate FP64 only with the driver's "double precision"
	// switch on (clocks then drop); 1/24 rate otherwise.
	withLimits(Spec{
		Name: "GeForce GTX TITAN", Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 14, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 876, BaseClockMHz: 837,
		MemClockMHz: 3004, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 288.4, L2Bytes: 1536 * kiB,
	}),
	// GK110B. DS: 2880 cores, 745 MHz base (4.29 SP / 1.43 DP TFLOP/s),
	// boost 810/875 MHz, 3.0 GHz (6 Gb/s) GDDR5 on 384 bits = 288 GB/s
	// (CPSC 424 GPU lecture: "~288 GB/s bandwidth on K40"). The K40c, K40m, K40s
	// and K40t differ only in cooling and connectors.
	withLimits(Spec{
		Name: "Tesla K40", Aliases: []string{"Tesla K40m", "Tesla K40s", "Tesla K40t", "Tesla K40st"},
		Arch: "Kepler", Chip: "GK110B", CC: "3.5",
		SMs: 15, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 875, BaseClockMHz: 745,
		MemClockMHz: 3004, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 288, L2Bytes: 1536 * kiB,
	}),
	// GK110B, see Tesla K40.
	withLimits(Spec{
		Name: "Tesla K40c", Arch: "Kepler", Chip: "GK110B", CC: "3.5",
		SMs: 15, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 875, BaseClockMHz: 745,
		MemClockMHz: 3004, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 288, L2Bytes: 1536 * kiB,
	}),
	// GK210, ONE of the board's two GPUs: each appears to CUDA and to the
	// profilers as its own "Tesla K80" device, so the per-GPU figures are
	// stored. DS (board): 4992 cores, 560 MHz base / 875 MHz boost,
	// 8.73 SP / 2.91 DP TFLOP/s at boost, 24 GB, 480 GB/s (CPSC 424 GPU lecture:
	// "K80: 8730 SP GFLOP/s (2910 DP)", "480 GB/s"). Per GPU: 13 SMX,
	// 5 Gb/s GDDR5 on 384 bits = 240 GB/s. (The lecture's later "BW = 288
	// GB/sec" for K80 is the K40's figure.)
	withLimits(Spec{
		Name: "Tesla K80", Arch: "Kepler", Chip: "GK210", CC: "3.7",
		SMs: 13, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 875, BaseClockMHz: 560,
		MemClockMHz: 2505, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 240, L2Bytes: 1536 * kiB,
	}),

	// --- Maxwell (CC 5.2): 128 lanes per SMM, FP64 at 1/32. ---

	// GM206. DS: 768 cores, 1024/1188 MHz, 6.6 Gb/s GDDR5 on 128 bits = 105.6 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 950", Arch: "Maxwell", Chip: "GM206", CC: "5.2",
		SMs: 6, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1188, BaseClockMHz: 1024,
		MemClockMHz: 3300, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 105.6, L2Bytes: 1 * miB,
	}),
	// GM200. DS: 3072 cores, 1000/1075 MHz, 7 Gb/s GDDR5 on 384 bits =
	// 336.5 GB/s. Listed so that "GeForce GTX TITAN X" is not taken for
	// the Kepler GTX TITAN or the Pascal TITAN X.
	withLimits(Spec{
		Name: "GeForce GTX TITAN X", Arch: "Maxwell", Chip: "GM200", CC: "5.2",
		SMs: 24, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1075, BaseClockMHz: 1000,
		MemClockMHz: 3505, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 336.5, L2Bytes: 3 * miB,
	}),

	// --- Pascal: GP100 (CC 6.0, 64 lanes, FP64 half rate, HBM2); GP10x (CC 6.1, 128 lanes, FP64 1/32). ---

	// GP104. DS: 2560 cores, 1607/1733 MHz, 10 Gb/s GDDR5X on 256 bits = 320 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 1080", Arch: "Pascal", Chip: "GP104", CC: "6.1",
		SMs: 20, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1733, BaseClockMHz: 1607,
		MemClockMHz: 5005, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 320, L2Bytes: 2 * miB,
	}),
	// GP102. DS: 3584 cores, 1480/1582 MHz, 11 Gb/s GDDR5X on 352 bits = 484 GB/s, 2.75 MB L2.
	withLimits(Spec{
		Name: "GeForce GTX 1080 Ti", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 28, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1582, BaseClockMHz: 1480,
		MemClockMHz: 5505, BusWidthBits: 352, DataRate: 2, DatasheetBandwidth: 484, L2Bytes: 2816 * kiB,
	}),
	// GP102. DS: 3584 cores, 1417/1531 MHz, 10 Gb/s GDDR5X on 384 bits = 480 GB/s.
	withLimits(Spec{
		Name: "TITAN X (Pascal)", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 28, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1531, BaseClockMHz: 1417,
		MemClockMHz: 5005, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 480, L2Bytes: 3 * miB,
	}),
	// GP102. DS: 3840 cores, 1405/1582 MHz, 11.4 Gb/s GDDR5X on 384 bits = 547.7 GB/s.
	withLimits(Spec{
		Name: "TITAN Xp", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 30, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1582, BaseClockMHz: 1405,
		MemClockMHz: 5705, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 547.7, L2Bytes: 3 * miB,
	}),
	// GP100, 12 GB PCIe: three of four HBM2 stacks. Pascal performance-pyramid notes: "listed
	// at 549 GB/s", 56 SMs, 1.126–1.3 GHz, FP64 peak 4.035 TFLOP/s at the
	// 1126 MHz base. DS: 715 MHz HBM2 on 3072 bits = 549 GB/s, boost
	// 1303 MHz (4.7 DP TFLOP/s); 3 MB L2 (one slice per stack).
	withLimits(Spec{
		Name: "Tesla P100-PCIE-12GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1303, BaseClockMHz: 1126,
		MemClockMHz: 715, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 549, L2Bytes: 3 * miB,
	}),
	// GP100, 16 GB PCIe. DS: 715 MHz HBM2 on 4096 bits = 732 GB/s, 1126/1303 MHz.
	withLimits(Spec{
		Name: "Tesla P100-PCIE-16GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1303, BaseClockMHz: 1126,
		MemClockMHz: 715, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 732, L2Bytes: 4 * miB,
	}),
	// GP100, SXM2 (NVLink). DS/WP: 1328/1480 MHz, 5.3 DP TFLOP/s, 732 GB/s.
	withLimits(Spec{
		Name: "Tesla P100-SXM2-16GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1480, BaseClockMHz: 1328,
		MemClockMHz: 715, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 732, L2Bytes: 4 * miB,
	}),

	// --- Volta (CC 7.0): GV100, 80 SMs × 64 lanes, FP64 half rate. ---

	// GV100 SXM2. DS/WP: 5120 cores at 1530 MHz boost (15.7 SP / 7.8 DP
	// TFLOP/s), 877 MHz HBM2 on 4096 bits = 900 GB/s, 6 MB L2.
	withLimits(Spec{
		Name: "Tesla V100-SXM2-16GB", Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1530,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB, MemoryGiB: 16,
	}),
	// GV100 SXM2 32 GB, same GPU as the 16 GB board.
	withLimits(Spec{
		Name: "Tesla V100-SXM2-32GB", Aliases: []string{"Tesla V100-SXM2-32GB-LS"}, Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1530,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB, MemoryGiB: 32,
	}),
	// GV100 PCIe. DS: 1380 MHz boost (14 SP / 7 DP TFLOP/s), 900 GB/s.
	withLimits(Spec{
		Name: "Tesla V100-PCIE-16GB", Aliases: []string{"Tesla V100-PCIE-32GB"}, Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1380,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB,
	}),
	// GV100, three HBM2 stacks. DS: 5120 cores, 1200/1455 MHz, 850 MHz
	// HBM2 on 3072 bits = 652.8 GB/s, 4.5 MB L2. The GPU of Pearson's Nsight Compute memory-efficiency article
	// tables.
	withLimits(Spec{
		Name: "TITAN V", Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1455, BaseClockMHz: 1200,
		MemClockMHz: 850, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 652.8, L2Bytes: 4608 * kiB, MemoryGiB: 12,
	}),

	// --- Turing (CC 7.5): 64 FP32 lanes per SM, FP64 at 1/32. ---

	// TU104. DS (NVIDIA T4 datasheet): 2560 cores (40 SMs), 1590 MHz
	// boost, 8.1 SP TFLOP/s, 16 GB GDDR6 on 256 bits, 320 GB/s (10 Gb/s:
	// 5000 MHz), 4 MB L2.
	withLimits(Spec{
		Name: "Tesla T4", Aliases: []string{"T4"}, Arch: "Turing", Chip: "TU104", CC: "7.5",
		SMs: 40, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1590, BaseClockMHz: 585,
		MemClockMHz: 5000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 320, L2Bytes: 4 * miB, MemoryGiB: 16,
	}),
	// TU102. DS (GeForce RTX 2080 Ti product page, Turing WP): 4352 cores
	// (68 SMs), 1545 MHz boost, 11 GB GDDR6 on 352 bits at 14 Gb/s =
	// 616 GB/s (7000 MHz), 5.5 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 2080 Ti", Arch: "Turing", Chip: "TU102", CC: "7.5",
		SMs: 68, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1545, BaseClockMHz: 1350,
		MemClockMHz: 7000, BusWidthBits: 352, DataRate: 2, DatasheetBandwidth: 616, L2Bytes: 5632 * kiB, MemoryGiB: 11,
	}),

	// --- Ampere (CC 8.0): GA100, 108 SMs × 64 lanes, FP64 half rate. ---

	// GA100 40 GB (SXM4 and PCIe share the memory system). WP: 1410 MHz
	// boost (19.5 SP / 9.7 DP TFLOP/s), 1215 MHz HBM2 on 5120 bits =
	// 1555 GB/s, 40 MB L2. The PCIe board's lower power limit does not
	// change its boost clock.
	withLimits(Spec{
		Name: "A100-SXM4-40GB", Aliases: []string{"A100-PCIE-40GB", "A100 40GB PCIe", "A100 SXM4 40GB", "A100 40GB"}, Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 108, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1410,
		MemClockMHz: 1215, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 1555, L2Bytes: 40 * miB, MemoryGiB: 40,
	}),
	// GA100 80 GB PCIe. DS (A100 datasheet): 1512 MHz HBM2e on 5120 bits
	// = 1935 GB/s.
	withLimits(Spec{
		Name: "A100 80GB PCIe", Aliases: []string{"A100-PCIE-80GB"}, Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 108, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1410,
		MemClockMHz: 1512, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 1935, L2Bytes: 40 * miB, MemoryGiB: 80,
	}),
	// GA100 with 56 SMs. DS (A30 datasheet): 3584 cores, 1440 MHz boost
	// (10.3 SP / 5.2 DP TFLOP/s), 24 GB HBM2 on 3072 bits, 933 GB/s
	// (1215 MHz), 24 MB L2.
	withLimits(Spec{
		Name: "A30", Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1440,
		MemClockMHz: 1215, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 933, L2Bytes: 24 * miB, MemoryGiB: 24,
	}),
	// GA100 80 GB SXM4. DS: 1593 MHz HBM2e on 5120 bits = 2039 GB/s.
	withLimits(Spec{
		Name: "A100-SXM4-80GB", Aliases: []string{"A100 SXM4 80GB", "A100 SXM 80GB"}, Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 108, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1410,
		MemClockMHz: 1593, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 2039, L2Bytes: 40 * miB, MemoryGiB: 80,
	}),

	// --- Ampere GA10x (CC 8.6, 8.7): 128 FP32 lanes per SM, FP64 at 1/64. ---

	// GA102. DS (A10 datasheet): 9216 cores (72 SMs), 1695 MHz boost
	// (31.2 SP TFLOP/s), 24 GB GDDR6 on 384 bits, 600 GB/s (12.5 Gb/s:
	// 6251 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "A10", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 72, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1695,
		MemClockMHz: 6251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 600, L2Bytes: 6 * miB, MemoryGiB: 24,
	}),
	// GA102 for AWS G5 instances (AWS's G5 page): 10240 cores (80 SMs),
	// 1710 MHz boost, the A10's memory: 24 GB GDDR6, 600 GB/s, 6 MB L2.
	withLimits(Spec{
		Name: "A10G", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 80, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1710,
		MemClockMHz: 6251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 600, L2Bytes: 6 * miB, MemoryGiB: 24,
	}),
	// GA102. DS (A40 datasheet): 10752 cores (84 SMs), 1740 MHz boost
	// (37.4 SP TFLOP/s), 48 GB GDDR6 on 384 bits, 696 GB/s (14.5 Gb/s:
	// 7251 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "A40", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 84, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1740,
		MemClockMHz: 7251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 696, L2Bytes: 6 * miB, MemoryGiB: 48,
	}),
	// GA102. DS (GeForce RTX 3090 product page, Ampere GA102 WP): 10496
	// cores (82 SMs), 1695 MHz boost, 24 GB GDDR6X on 384 bits at
	// 19.5 Gb/s = 936 GB/s (9751 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 3090", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 82, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1695, BaseClockMHz: 1395,
		MemClockMHz: 9751, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 936, L2Bytes: 6 * miB, MemoryGiB: 24,
	}),
	// GA10B. DS (Jetson AGX Orin series datasheet): 2048 cores (16 SMs)
	// at up to 1300 MHz, 64 GB LPDDR5 on 256 bits, 204.8 GB/s (6400 MT/s:
	// 3200 MHz), 4 MB L2. Memory is shared with the CPU.
	withLimits(Spec{
		Name: "Jetson AGX Orin", Aliases: []string{"Orin", "Jetson Orin"}, Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 16, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1300,
		MemClockMHz: 3200, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 204.8, L2Bytes: 4 * miB, MemoryGiB: 64,
	}),

	// --- Ada (CC 8.9). ---

	// AD104. DS (L4 datasheet): 7424 cores (58 SMs), 2040 MHz boost
	// (30.3 SP TFLOP/s), 24 GB GDDR6 on 192 bits, 300 GB/s (12.5 Gb/s:
	// 6251 MHz), 48 MB L2.
	withLimits(Spec{
		Name: "L4", Arch: "Ada", Chip: "AD104", CC: "8.9",
		SMs: 58, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2040, BaseClockMHz: 795,
		MemClockMHz: 6251, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 300, L2Bytes: 48 * miB, MemoryGiB: 24,
	}),
	// AD102. DS (L40 datasheet): 18176 cores (142 SMs), 2490 MHz boost
	// (90.5 SP TFLOP/s), 48 GB GDDR6 on 384 bits, 864 GB/s (18 Gb/s:
	// 9001 MHz), 96 MB L2.
	withLimits(Spec{
		Name: "L40", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2490,
		MemClockMHz: 9001, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 864, L2Bytes: 96 * miB, MemoryGiB: 48,
	}),
	// AD102. DS (L40S datasheet): as the L40 at 2520 MHz boost (91.6 SP
	// TFLOP/s); 864 GB/s.
	withLimits(Spec{
		Name: "L40S", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2520,
		MemClockMHz: 9001, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 864, L2Bytes: 96 * miB, MemoryGiB: 48,
	}),
	// AD102. DS (GeForce RTX 4090 product page, Ada WP): 16384 cores (128
	// SMs), 2520 MHz boost, 24 GB GDDR6X on 384 bits at 21 Gb/s =
	// 1008 GB/s (10501 MHz), 72 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 4090", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 128, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2520, BaseClockMHz: 2235,
		MemClockMHz: 10501, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 1008, L2Bytes: 72 * miB, MemoryGiB: 24,
	}),

	// AD102. DS: 18176 cores (142 SMs), 2505 MHz boost, 91.1 SP TFLOP/s,
	// 960 GB/s GDDR6 on 384 bits (20 Gb/s: clock derived = 10000 MHz),
	// 96 MB L2, FP64 at 1/64.
	withLimits(Spec{
		Name: "RTX 6000 Ada Generation", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2505, BaseClockMHz: 915,
		MemClockMHz: 10000, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 960, L2Bytes: 96 * miB, MemoryGiB: 48,
	}),

	// --- Hopper (CC 9.0): GH100, 128 FP32 and 64 FP64 lanes per SM. ---

	// GH100 SXM5 80 GB. WP/DS: 132 SMs, 1980 MHz boost (67 SP / 34 DP
	// TFLOP/s), five HBM3 stacks on 5120 bits at 2619 MHz = 3.35 TB/s,
	// 50 MB L2.
	withLimits(Spec{
		Name: "H100 SXM5 80GB", Aliases: []string{"H100 80GB HBM3", "H100-SXM5-80GB", "H100 SXM", "H100 SXM5"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1980,
		MemClockMHz: 2619, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 3350, L2Bytes: 50 * miB, MemoryGiB: 80,
	}),
	// GH100 PCIe 80 GB. DS: 114 SMs, 1755 MHz boost (51 SP / 26 DP
	// TFLOP/s), HBM2e on 5120 bits, "2 TB/s". 1593 MHz is the HBM2e speed
	// grade of the A100 80GB (2039 GB/s); NVIDIA rounds to 2 TB/s, 1.9%
	// below the computed peak.
	withLimits(Spec{
		Name: "H100 PCIe", Aliases: []string{"H100 PCIe 80GB"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 114, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1755,
		MemClockMHz: 1593, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 2000, L2Bytes: 50 * miB, MemoryGiB: 80,
	}),
	// GH100 NVL, 94 GB. DS (H100 datasheet): 3.9 TB/s on 6144 bits
	// (clock derived = 2539 MHz), 1785 MHz boost (60 SP / 30 DP
	// TFLOP/s for 132 SMs), 50 MB L2.
	withLimits(Spec{
		Name: "H100 NVL", Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1785,
		MemClockMHz: 2539, BusWidthBits: 6144, DataRate: 2, DatasheetBandwidth: 3900, L2Bytes: 50 * miB, MemoryGiB: 94,
		NeedsMemoryClue: true,
	}),
	// GH100 with six HBM3e stacks (141 GB). DS: 4.8 TB/s on 6144 bits
	// (6.25 Gb/s: clock derived = 3125 MHz); compute as H100 SXM5. L2:
	// 60 MiB, as the device attribute of the H200 capture in fixtures/ncu
	// reports it (62914560 B; the H100's reads 52428800), with 6016 bits of
	// bus enabled, a memory clock of 3201 MHz and 139.8 GiB.
	withLimits(Spec{
		Name: "H200", Aliases: []string{"H200 SXM", "H200 NVL"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1980,
		MemClockMHz: 3125, BusWidthBits: 6144, DataRate: 2, DatasheetBandwidth: 4800, L2Bytes: 60 * miB, MemoryGiB: 141,
	}),

	// --- Blackwell: datacenter GB100 (CC 10.0) and GeForce GB202 (CC 12.0). ---

	// B200: two GB100 dies, 148 SMs, eight HBM3e stacks on 8192 bits.
	// DS: 8 TB/s (7.8 Gb/s: clock derived = 3906.25 MHz). NVIDIA does not
	// publish an SM clock; 1965 MHz (max clock reported by nvidia-smi)
	// gives 37.2 FP64 TFLOP/s, NVIDIA's revised HGX figure is 37 (earlier
	// 40). L2 126 MB (measured by Chips and Cheese). Treat the FLOP peaks
	// as ±7%.
	withLimits(Spec{
		Name: "B200", Aliases: []string{"HGX B200", "GB200"}, Arch: "Blackwell", Chip: "GB100", CC: "10.0",
		SMs: 148, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1965,
		MemClockMHz: 3906.25, BusWidthBits: 8192, DataRate: 2, DatasheetBandwidth: 8000, L2Bytes: 126 * miB, MemoryGiB: 180,
	}),
	// GB202. DS: 21760 cores (170 SMs), 2010/2407 MHz, 104.8 SP TFLOP/s,
	// 28 Gb/s GDDR7 on 512 bits = 1792 GB/s (clock derived = 14000 MHz),
	// 96 MB L2, FP64 at 1/64.
	withLimits(Spec{
		Name: "GeForce RTX 5090", Arch: "Blackwell", Chip: "GB202", CC: "12.0",
		SMs: 170, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2407, BaseClockMHz: 2010,
		MemClockMHz: 14000, BusWidthBits: 512, DataRate: 2, DatasheetBandwidth: 1792, L2Bytes: 96 * miB, MemoryGiB: 32,
	}),
}

// ccLimits are the per-SM limits of one compute capability (PG, "Feature
// Support per Compute Capability" and the per-CC sections).
type ccLimits struct {
	warps, blocks, regs int
	l1Shared, maxShared int
	banks               int
	bank8               bool
}

var limitsByCC = map[string]ccLimits{
	"1.0": {warps: 24, blocks: 8, regs: 8192, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16},
	"1.3": {warps: 32, blocks: 8, regs: 16384, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16},
	// Fermi: 64 KB split 16/48 between L1 and shared.
	"2.0": {warps: 48, blocks: 8, regs: 32768, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32},
	// Kepler: 64 KB split 16/32/48; 8-byte bank mode available. GK210
	// doubles both the unified array (128 KB, up to 112 KB shared) and the
	// register file.
	"3.0": {warps: 64, blocks: 16, regs: 65536, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32, bank8: true},
	"3.5": {warps: 64, blocks: 16, regs: 65536, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32, bank8: true},
	"3.7": {warps: 64, blocks: 16, regs: 131072, l1Shared: 128 * kiB, maxShared: 112 * kiB, banks: 32, bank8: true},
	// Maxwell and Pascal GP10x: 96 KB dedicated shared memory plus 48 KB
	// of L1/texture cache; GP100: 64 KB shared plus 24 KB L1 (the Pascal
	// performance-pyramid notes: "the small 24KB ... L1").
	"5.2": {warps: 64, blocks: 32, regs: 65536, l1Shared: 144 * kiB, maxShared: 96 * kiB, banks: 32},
	"6.0": {warps: 64, blocks: 32, regs: 65536, l1Shared: 88 * kiB, maxShared: 64 * kiB, banks: 32},
	"6.1": {warps: 64, blocks: 32, regs: 65536, l1Shared: 144 * kiB, maxShared: 96 * kiB, banks: 32},
	// Volta onward: one unified L1/shared array per SM.
	"7.0":  {warps: 64, blocks: 32, regs: 65536, l1Shared: 128 * kiB, maxShared: 96 * kiB, banks: 32},
	"7.5":  {warps: 32, blocks: 16, regs: 65536, l1Shared: 96 * kiB, maxShared: 64 * kiB, banks: 32},
	"8.0":  {warps: 64, blocks: 32, regs: 65536, l1Shared: 192 * kiB, maxShared: 164 * kiB, banks: 32},
	"8.6":  {warps: 48, blocks: 16, regs: 65536, l1Shared: 128 * kiB, maxShared: 100 * kiB, banks: 32},
	"8.7":  {warps: 48, blocks: 16, regs: 65536, l1Shared: 192 * kiB, maxShared: 164 * kiB, banks: 32},
	"8.9":  {warps: 48, blocks: 24, regs: 65536, l1Shared: 128 * kiB, maxShared: 100 * kiB, banks: 32},
	"9.0":  {warps: 64, blocks: 32, regs: 65536, l1Shared: 256 * kiB, maxShared: 228 * kiB, banks: 32},
	"10.0": {warps: 64, blocks: 32, regs: 65536, l1Shared: 256 * kiB, maxShared: 228 * kiB, banks: 32},
	"12.0": {warps: 48, blocks: 32, regs: 65536, l1Shared: 128 * kiB, maxShared: 100 * kiB, banks: 32},
}

// withLimits fills the per-CC fields of s. A CC missing from limitsByCC is
// a bug in this file, caught by TestSpecsComplete.
func withLimits(s Spec) *Spec {
	l := limitsByCC[s.CC]
	s.MaxWarpsPerSM = l.warps
	s.MaxBlocksPerSM = l.blocks
	s.RegistersPerSM = l.regs
	s.L1SharedPerSMBytes = l.l1Shared
	s.MaxSharedPerSMBytes = l.maxShared
	s.SharedBanks = l.banks
	s.BankWidthBytes = 4
	s.BankWidth8 = l.bank8
	s.WarpSize = 32
	return &s
}
