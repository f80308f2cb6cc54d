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
		Source: "NVIDIA GeForce 8800 GTX datasheet",
	}),
	// G80 Quadro. DS: 128 SPs at 1350 MHz, 800 MHz GDDR3 on 384 bits =
	// 76.8 GB/s; the Harris's CUDA performance slides rounds it to "77 GB/s" (CC 1.0).
	withLimits(Spec{
		Name: "Quadro FX 5600", Arch: "Tesla", Chip: "G80", CC: "1.0",
		SMs: 16, CoresPerSM: 8, FP64PerSM: 0, SMClockMHz: 1350,
		MemClockMHz: 800, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 76.8,
		Source: "NVIDIA Quadro FX 5600 datasheet; Harris, CUDA performance slides (77 GB/s)",
	}),
	// GT200. Harris's CUDA performance slides: 1107 MHz × 512/8 × 2 = 141.7 GB/s, "specs
	// report 141 GB/s", CC 1.3; 30 SMs × 8 SPs ("240 SP cores") at
	// 1296 MHz, one FP64 unit per SM (77.8 GFLOP/s).
	withLimits(Spec{
		Name: "GeForce GTX 280", Arch: "Tesla", Chip: "GT200", CC: "1.3",
		SMs: 30, CoresPerSM: 8, FP64PerSM: 1, SMClockMHz: 1296,
		MemClockMHz: 1107, BusWidthBits: 512, DataRate: 2, DatasheetBandwidth: 141.7,
		Source: "Harris, CUDA performance slides (1107 MHz, 512 bits, 141 GB/s, 240 SPs at 1296 MHz)",
	}),

	// --- Fermi (CC 2.0): 14 or 16 SMs × 32 lanes, FP64 at half rate on Tesla boards. ---

	// GF100. DS: 448 cores at 1.15 GHz, 1030 GFLOP/s SP, 515 DP; 1500 MHz
	// GDDR5 on 384 bits = 144 GB/s (Harris's CUDA performance slides' "144 GB/s peak (C2050)").
	withLimits(Spec{
		Name: "Tesla C2050", Aliases: []string{"Tesla C2070"}, Arch: "Fermi", Chip: "GF100", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1500, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 144, L2Bytes: 768 * kiB,
		Source: "NVIDIA Tesla C2050/C2070 datasheet; Harris, CUDA performance slides (144 GB/s)", DatasheetFP32TFLOPs: 1.03,
	}),
	// GF100. How-to-measure-performance article: "1,546 MHz ... 384-bit ... 148 GB/s"; 1030 SP
	// and 515 DP GFLOP/s.
	withLimits(Spec{
		Name: "Tesla M2050", Aliases: []string{"Tesla M2070"}, Arch: "Fermi", Chip: "GF100", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1546, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 148, L2Bytes: 768 * kiB,
		Source: "NVIDIA, How to Implement Performance Metrics in CUDA C/C++ (1546 MHz, 384 bits, 148 GB/s); Tesla M2050 datasheet", DatasheetFP32TFLOPs: 1.03,
	}),
	// GF110. DS: 448 cores at 1.15 GHz, 1566 MHz GDDR5 on 384 bits = 150 GB/s.
	withLimits(Spec{
		Name: "Tesla M2075", Arch: "Fermi", Chip: "GF110", CC: "2.0",
		SMs: 14, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1150,
		MemClockMHz: 1566, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 150, L2Bytes: 768 * kiB,
		Source: "NVIDIA Tesla M2075 datasheet", DatasheetFP32TFLOPs: 1.03,
	}),
	// GF110. CPSC 424 GPU lecture: 1331 SP / 665 DP GFLOP/s, 177 GB/s; DS: 512
	// cores at 1.3 GHz, 1848 MHz GDDR5 on 384 bits (177.4 GB/s).
	withLimits(Spec{
		Name: "Tesla M2090", Arch: "Fermi", Chip: "GF110", CC: "2.0",
		SMs: 16, CoresPerSM: 32, FP64PerSM: 16, SMClockMHz: 1300,
		MemClockMHz: 1848, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 177, L2Bytes: 768 * kiB,
		Source: "NVIDIA Tesla M2090 datasheet; CPSC 424 GPU lecture (1331 GFLOP/s, 177 GB/s)", DatasheetFP32TFLOPs: 1.331,
	}),

	// --- Kepler (CC 3.x): 192 lanes per SMX; GK110/GK210 have 64 FP64 lanes. ---

	// GK104. DS: 1152 cores, 980/1033 MHz, 6.0 Gb/s GDDR5 on 256 bits = 192.2 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 760", Arch: "Kepler", Chip: "GK104", CC: "3.0",
		SMs: 6, CoresPerSM: 192, FP64PerSM: 8, SMClockMHz: 1033, BaseClockMHz: 980,
		MemClockMHz: 3004, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 192.2, L2Bytes: 512 * kiB,
		Source: "NVIDIA GeForce GTX 760 product page",
	}),
	// GK110. DS: 2496 cores at 706 MHz, 3.52 SP / 1.17 DP TFLOP/s, 5.2 Gb/s
	// GDDR5 on 320 bits = 208 GB/s; CPSC 424 GPU lecture: 1.25 MB L2. The K20c
	// (active cooling) and K20m (passive) are the same GPU.
	withLimits(Spec{
		Name: "Tesla K20", Aliases: []string{"Tesla K20m"}, Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 13, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 706,
		MemClockMHz: 2600, BusWidthBits: 320, DataRate: 2, DatasheetBandwidth: 208, L2Bytes: 1280 * kiB,
		Source: "NVIDIA Tesla K20 datasheet; CPSC 424 GPU lecture (1.25 MB L2)", DatasheetFP32TFLOPs: 3.52,
	}),
	// GK110, see Tesla K20.
	withLimits(Spec{
		Name: "Tesla K20c", Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 13, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 706,
		MemClockMHz: 2600, BusWidthBits: 320, DataRate: 2, DatasheetBandwidth: 208, L2Bytes: 1280 * kiB,
		Source: "NVIDIA Tesla K20 datasheet; CPSC 424 GPU lecture (1.25 MB L2)", DatasheetFP32TFLOPs: 3.52,
	}),
	// GK110. DS: 2688 cores at 732 MHz, 3.95 SP / 1.31 DP TFLOP/s, 5.2 Gb/s
	// GDDR5 on 384 bits = 250 GB/s (CPSC 424 GPU lecture: "K20X 250 GB/s", 1.5 MB L2).
	withLimits(Spec{
		Name: "Tesla K20X", Aliases: []string{"Tesla K20Xm"}, Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 14, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 732,
		MemClockMHz: 2600, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 250, L2Bytes: 1536 * kiB,
		Source: "NVIDIA Tesla K20X datasheet; CPSC 424 GPU lecture (250 GB/s, 1.5 MB L2)", DatasheetFP32TFLOPs: 3.95,
	}),
	// GK110. DS: 2688 cores, 837/876 MHz, 6.0 Gb/s GDDR5 on 384 bits =
	// 288.4 GB/s. Full-rate FP64 only with the driver's "double precision"
	// switch on (clocks then drop); 1/24 rate otherwise.
	withLimits(Spec{
		Name: "GeForce GTX TITAN", Arch: "Kepler", Chip: "GK110", CC: "3.5",
		SMs: 14, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 876, BaseClockMHz: 837,
		MemClockMHz: 3004, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 288.4, L2Bytes: 1536 * kiB,
		Source: "NVIDIA GeForce GTX TITAN product page",
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
		Source: "NVIDIA Tesla K40 datasheet (FLOP/s at the 745 MHz base clock); CPSC 424 GPU lecture (~288 GB/s)",
	}),
	// GK110B, see Tesla K40.
	withLimits(Spec{
		Name: "Tesla K40c", Arch: "Kepler", Chip: "GK110B", CC: "3.5",
		SMs: 15, CoresPerSM: 192, FP64PerSM: 64, SMClockMHz: 875, BaseClockMHz: 745,
		MemClockMHz: 3004, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 288, L2Bytes: 1536 * kiB,
		Source: "NVIDIA Tesla K40 datasheet (FLOP/s at the 745 MHz base clock); CPSC 424 GPU lecture (~288 GB/s)",
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
		Source: "NVIDIA Tesla K80 datasheet, board figures halved per GPU (8.73 TFLOP/s, 480 GB/s); CPSC 424 GPU lecture", DatasheetFP32TFLOPs: 4.365,
	}),

	// --- Maxwell (CC 5.2): 128 lanes per SMM, FP64 at 1/32. ---

	// GM206. DS: 768 cores, 1024/1188 MHz, 6.6 Gb/s GDDR5 on 128 bits = 105.6 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 950", Arch: "Maxwell", Chip: "GM206", CC: "5.2",
		SMs: 6, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1188, BaseClockMHz: 1024,
		MemClockMHz: 3300, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 105.6, L2Bytes: 1 * miB,
		Source: "NVIDIA GeForce GTX 950 product page",
	}),
	// GM200. DS: 3072 cores, 1000/1075 MHz, 7 Gb/s GDDR5 on 384 bits =
	// 336.5 GB/s. Listed so that "GeForce GTX TITAN X" is not taken for
	// the Kepler GTX TITAN or the Pascal TITAN X.
	withLimits(Spec{
		Name: "GeForce GTX TITAN X", Arch: "Maxwell", Chip: "GM200", CC: "5.2",
		SMs: 24, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1075, BaseClockMHz: 1000,
		MemClockMHz: 3505, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 336.5, L2Bytes: 3 * miB,
		Source: "NVIDIA GeForce GTX TITAN X product page",
	}),

	// --- Pascal: GP100 (CC 6.0, 64 lanes, FP64 half rate, HBM2); GP10x (CC 6.1, 128 lanes, FP64 1/32). ---

	// GP104. DS: 2560 cores, 1607/1733 MHz, 10 Gb/s GDDR5X on 256 bits = 320 GB/s.
	withLimits(Spec{
		Name: "GeForce GTX 1080", Arch: "Pascal", Chip: "GP104", CC: "6.1",
		SMs: 20, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1733, BaseClockMHz: 1607,
		MemClockMHz: 5005, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 320, L2Bytes: 2 * miB,
		Source: "NVIDIA GeForce GTX 1080 product page (8.9 TFLOP/s)", DatasheetFP32TFLOPs: 8.9,
	}),
	// GP102. DS: 3584 cores, 1480/1582 MHz, 11 Gb/s GDDR5X on 352 bits = 484 GB/s, 2.75 MB L2.
	withLimits(Spec{
		Name: "GeForce GTX 1080 Ti", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 28, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1582, BaseClockMHz: 1480,
		MemClockMHz: 5505, BusWidthBits: 352, DataRate: 2, DatasheetBandwidth: 484, L2Bytes: 2816 * kiB,
		Source: "NVIDIA GeForce GTX 1080 Ti product page (11.3 TFLOP/s)", DatasheetFP32TFLOPs: 11.3,
	}),
	// GP102. DS: 3584 cores, 1417/1531 MHz, 10 Gb/s GDDR5X on 384 bits = 480 GB/s.
	withLimits(Spec{
		Name: "TITAN X (Pascal)", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 28, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1531, BaseClockMHz: 1417,
		MemClockMHz: 5005, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 480, L2Bytes: 3 * miB,
		Source: "NVIDIA TITAN X (Pascal) product page (11 TFLOP/s)", DatasheetFP32TFLOPs: 11,
	}),
	// GP102. DS: 3840 cores, 1405/1582 MHz, 11.4 Gb/s GDDR5X on 384 bits = 547.7 GB/s.
	withLimits(Spec{
		Name: "TITAN Xp", Arch: "Pascal", Chip: "GP102", CC: "6.1",
		SMs: 30, CoresPerSM: 128, FP64PerSM: 4, SMClockMHz: 1582, BaseClockMHz: 1405,
		MemClockMHz: 5705, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 547.7, L2Bytes: 3 * miB,
		Source: "NVIDIA TITAN Xp product page (12.1 TFLOP/s)", DatasheetFP32TFLOPs: 12.1,
	}),
	// GP100, 12 GB PCIe: three of four HBM2 stacks. Pascal performance-pyramid notes: "listed
	// at 549 GB/s", 56 SMs, 1.126–1.3 GHz, FP64 peak 4.035 TFLOP/s at the
	// 1126 MHz base. DS: 715 MHz HBM2 on 3072 bits = 549 GB/s, boost
	// 1303 MHz (4.7 DP TFLOP/s); 3 MB L2 (one slice per stack).
	withLimits(Spec{
		Name: "Tesla P100-PCIE-12GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1303, BaseClockMHz: 1126,
		MemClockMHz: 715, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 549, L2Bytes: 3 * miB,
		Source: "NVIDIA Tesla P100 PCIe datasheet (9.3 TFLOP/s); Pascal performance-pyramid notes (549 GB/s)", DatasheetFP32TFLOPs: 9.3,
	}),
	// GP100, 16 GB PCIe. DS: 715 MHz HBM2 on 4096 bits = 732 GB/s, 1126/1303 MHz.
	withLimits(Spec{
		Name: "Tesla P100-PCIE-16GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1303, BaseClockMHz: 1126,
		MemClockMHz: 715, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 732, L2Bytes: 4 * miB,
		Source: "NVIDIA Tesla P100 PCIe datasheet (9.3 TFLOP/s, 732 GB/s)", DatasheetFP32TFLOPs: 9.3,
	}),
	// GP100, SXM2 (NVLink). DS/WP: 1328/1480 MHz, 5.3 DP TFLOP/s, 732 GB/s.
	withLimits(Spec{
		Name: "Tesla P100-SXM2-16GB", Arch: "Pascal", Chip: "GP100", CC: "6.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1480, BaseClockMHz: 1328,
		MemClockMHz: 715, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 732, L2Bytes: 4 * miB,
		Source: "NVIDIA Tesla P100 datasheet (10.6 TFLOP/s); Pascal GP100 whitepaper", DatasheetFP32TFLOPs: 10.6,
	}),

	// --- Volta (CC 7.0): GV100, 80 SMs × 64 lanes, FP64 half rate. ---

	// GV100 SXM2. DS/WP: 5120 cores at 1530 MHz boost (15.7 SP / 7.8 DP
	// TFLOP/s), 877 MHz HBM2 on 4096 bits = 900 GB/s, 6 MB L2.
	withLimits(Spec{
		Name: "Tesla V100-SXM2-16GB", Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1530,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB, MemoryGiB: 16,
		Source: "NVIDIA Tesla V100 datasheet (15.7 TFLOP/s, 900 GB/s); Volta GV100 whitepaper", DatasheetFP32TFLOPs: 15.7,
	}),
	// GV100 SXM2 32 GB, same GPU as the 16 GB board.
	withLimits(Spec{
		Name: "Tesla V100-SXM2-32GB", Aliases: []string{"Tesla V100-SXM2-32GB-LS"}, Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1530,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB, MemoryGiB: 32,
		Source: "NVIDIA Tesla V100 datasheet (15.7 TFLOP/s, 900 GB/s); Volta GV100 whitepaper", DatasheetFP32TFLOPs: 15.7,
	}),
	// GV100 PCIe. DS: 1380 MHz boost (14 SP / 7 DP TFLOP/s), 900 GB/s.
	withLimits(Spec{
		Name: "Tesla V100-PCIE-16GB", Aliases: []string{"Tesla V100-PCIE-32GB", "V100 PCIe", "V100 PCIe 32GB"}, Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1380,
		MemClockMHz: 877, BusWidthBits: 4096, DataRate: 2, DatasheetBandwidth: 900, L2Bytes: 6 * miB,
		Source: "NVIDIA Tesla V100 datasheet (14 TFLOP/s, 900 GB/s)", DatasheetFP32TFLOPs: 14,
	}),
	// GV100, three HBM2 stacks. DS: 5120 cores, 1200/1455 MHz, 850 MHz
	// HBM2 on 3072 bits = 652.8 GB/s, 4.5 MB L2. The GPU of Pearson's Nsight Compute memory-efficiency article
	// tables.
	withLimits(Spec{
		Name: "TITAN V", Arch: "Volta", Chip: "GV100", CC: "7.0",
		SMs: 80, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1455, BaseClockMHz: 1200,
		MemClockMHz: 850, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 652.8, L2Bytes: 4608 * kiB, MemoryGiB: 12,
		Source: "NVIDIA TITAN V product page",
	}),

	// --- Turing (CC 7.5): 64 FP32 lanes per SM, FP64 at 1/32. ---

	// TU104. DS (NVIDIA T4 datasheet): 2560 cores (40 SMs), 1590 MHz
	// boost, 8.1 SP TFLOP/s, 16 GB GDDR6 on 256 bits, 320 GB/s (10 Gb/s:
	// 5000 MHz), 4 MB L2.
	withLimits(Spec{
		Name: "Tesla T4", Aliases: []string{"T4"}, Arch: "Turing", Chip: "TU104", CC: "7.5",
		SMs: 40, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1590, BaseClockMHz: 585,
		MemClockMHz: 5000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 320, L2Bytes: 4 * miB, MemoryGiB: 16,
		Source: "NVIDIA T4 datasheet (8.1 TFLOP/s, 320 GB/s)", DatasheetFP32TFLOPs: 8.1,
	}),
	// TU102. DS (GeForce RTX 2080 Ti product page, Turing WP): 4352 cores
	// (68 SMs), 1545 MHz boost, 11 GB GDDR6 on 352 bits at 14 Gb/s =
	// 616 GB/s (7000 MHz), 5.5 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 2080 Ti", Arch: "Turing", Chip: "TU102", CC: "7.5",
		SMs: 68, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1545, BaseClockMHz: 1350,
		MemClockMHz: 7000, BusWidthBits: 352, DataRate: 2, DatasheetBandwidth: 616, L2Bytes: 5632 * kiB, MemoryGiB: 11,
		Source: "NVIDIA GeForce RTX 2080 Ti product page; Turing whitepaper; NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (13,448 GFLOP/s)", DatasheetFP32TFLOPs: 13.448,
	}),
	// TU106, 192 bits of its 256 enabled. NVIDIA's reference specs as the
	// Scan TekSpek and HEXUS RTX 3060 Ti tables give them: 1920 cores,
	// 1365/1680 MHz, 6 GB GDDR6 at 14 Gb/s on 192 bits = 336 GB/s. Their
	// "6,221 GFLOPS" is 1920 × 2 × 1620 MHz, not the stated boost, so it is
	// not kept. L2 3 MB: the 4 MB of TU106 less the disabled quarter of
	// the bus, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 2060", Arch: "Turing", Chip: "TU106", CC: "7.5",
		SMs: 30, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1680, BaseClockMHz: 1365,
		MemClockMHz: 7000, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 336, L2Bytes: 3 * miB, MemoryGiB: 6,
		Source:     "NVIDIA reference specs as tabled by Scan TekSpek (GeForce RTX 3060 Ti) and HEXUS (RTX 3060 Ti review)",
		Unverified: []string{"L2"},
	}),
	// TU106. Guru3D's RTX 2060/2070 SUPER review table: 2176 cores (34
	// SMs), 1470/1650 MHz, 14 Gb/s; a GPU database comparison page: 256
	// bits, 448 GB/s; AnandTech's Turing table: TU106 has 4 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 2060 SUPER", Arch: "Turing", Chip: "TU106", CC: "7.5",
		SMs: 34, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1650, BaseClockMHz: 1470,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "Guru3D, GeForce RTX 2060 SUPER and 2070 SUPER review (cores, clocks, 14 Gb/s); cputronic comparison page (256 bits, 448 GB/s); AnandTech Turing deep dive (TU106: 4 MB L2)",
	}),
	// TU106, the full chip. bit-tech's table of NVIDIA's reference specs:
	// 36 SMs, 1410/1620 MHz (the Founders Edition runs 1710); Tom's
	// Hardware: 8 GB of 14 Gb/s GDDR6 on 256 bits, 448 GB/s, 4 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 2070", Arch: "Turing", Chip: "TU106", CC: "7.5",
		SMs: 36, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1620, BaseClockMHz: 1410,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "bit-tech, Nvidia's Turing architecture explained (NVIDIA reference specs); Tom's Hardware, Turing architecture explored (14 Gb/s, 448 GB/s, 4 MB L2)",
	}),
	// TU104. Scan TekSpek / HEXUS tables: 2560 cores, 1605/1770 MHz,
	// 9,062 GFLOP/s, 14 Gb/s on 256 bits = 448 GB/s; AnandTech: TU104 has
	// 4 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 2070 SUPER", Arch: "Turing", Chip: "TU104", CC: "7.5",
		SMs: 40, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1770, BaseClockMHz: 1605,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (9,062 GFLOP/s); AnandTech Turing deep dive (TU104: 4 MB L2)", DatasheetFP32TFLOPs: 9.062,
	}),
	// TU104. Scan TekSpek / HEXUS: 2944 cores, 1515/1710 MHz (Founders
	// Edition 1800), 10,068 GFLOP/s, 14 Gb/s on 256 bits = 448 GB/s.
	withLimits(Spec{
		Name: "GeForce RTX 2080", Arch: "Turing", Chip: "TU104", CC: "7.5",
		SMs: 46, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1710, BaseClockMHz: 1515,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (10,068 GFLOP/s); AnandTech Turing deep dive (TU104: 4 MB L2)", DatasheetFP32TFLOPs: 10.068,
	}),
	// TU104, the full chip. Scan TekSpek / HEXUS: 3072 cores, 1650/1815
	// MHz, 11,151 GFLOP/s, 15.5 Gb/s on 256 bits = 496 GB/s.
	withLimits(Spec{
		Name: "GeForce RTX 2080 SUPER", Arch: "Turing", Chip: "TU104", CC: "7.5",
		SMs: 48, CoresPerSM: 64, FP64PerSM: 2, SMClockMHz: 1815, BaseClockMHz: 1650,
		MemClockMHz: 7750, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 496, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (11,151 GFLOP/s); AnandTech Turing deep dive (TU104: 4 MB L2)", DatasheetFP32TFLOPs: 11.151,
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
		Source: "NVIDIA A100 Tensor Core GPU architecture whitepaper; A100 datasheet (19.5 TFLOP/s)", DatasheetFP32TFLOPs: 19.5,
	}),
	// GA100 80 GB PCIe. DS (A100 datasheet): 1512 MHz HBM2e on 5120 bits
	// = 1935 GB/s.
	withLimits(Spec{
		Name: "A100 80GB PCIe", Aliases: []string{"A100-PCIE-80GB"}, Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 108, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1410,
		MemClockMHz: 1512, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 1935, L2Bytes: 40 * miB, MemoryGiB: 80,
		Source: "NVIDIA A100 datasheet (19.5 TFLOP/s, 1935 GB/s)", DatasheetFP32TFLOPs: 19.5,
	}),
	// GA100 with 56 SMs. DS (A30 datasheet): 3584 cores, 1440 MHz boost
	// (10.3 SP / 5.2 DP TFLOP/s), 24 GB HBM2 on 3072 bits, 933 GB/s
	// (1215 MHz), 24 MB L2.
	withLimits(Spec{
		Name: "A30", Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 56, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1440,
		MemClockMHz: 1215, BusWidthBits: 3072, DataRate: 2, DatasheetBandwidth: 933, L2Bytes: 24 * miB, MemoryGiB: 24,
		Source: "NVIDIA A30 datasheet (10.3 TFLOP/s, 933 GB/s)", DatasheetFP32TFLOPs: 10.3,
	}),
	// GA100 80 GB SXM4. DS: 1593 MHz HBM2e on 5120 bits = 2039 GB/s.
	withLimits(Spec{
		Name: "A100-SXM4-80GB", Aliases: []string{"A100 SXM4 80GB", "A100 SXM 80GB"}, Arch: "Ampere", Chip: "GA100", CC: "8.0",
		SMs: 108, CoresPerSM: 64, FP64PerSM: 32, SMClockMHz: 1410,
		MemClockMHz: 1593, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 2039, L2Bytes: 40 * miB, MemoryGiB: 80,
		Source: "NVIDIA A100 datasheet (19.5 TFLOP/s, 2039 GB/s)", DatasheetFP32TFLOPs: 19.5,
	}),

	// --- Ampere GA10x (CC 8.6, 8.7): 128 FP32 lanes per SM, FP64 at 1/64. ---

	// GA102. DS (A10 datasheet): 9216 cores (72 SMs), 1695 MHz boost
	// (31.2 SP TFLOP/s), 24 GB GDDR6 on 384 bits, 600 GB/s (12.5 Gb/s:
	// 6251 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "A10", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 72, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1695,
		MemClockMHz: 6251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 600, L2Bytes: 6 * miB, MemoryGiB: 24,
		Source: "NVIDIA A10 datasheet (31.2 TFLOP/s, 600 GB/s)", DatasheetFP32TFLOPs: 31.2,
	}),
	// GA102 for AWS G5 instances (AWS's G5 page): 10240 cores (80 SMs),
	// 1710 MHz boost, the A10's memory: 24 GB GDDR6, 600 GB/s, 6 MB L2.
	withLimits(Spec{
		Name: "A10G", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 80, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1710,
		MemClockMHz: 6251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 600, L2Bytes: 6 * miB, MemoryGiB: 24,
		Source: "AWS EC2 G5 instance page (A10G: 80 SMs, 1710 MHz, 24 GB, 600 GB/s)",
	}),
	// GA102. DS (A40 datasheet): 10752 cores (84 SMs), 1740 MHz boost
	// (37.4 SP TFLOP/s), 48 GB GDDR6 on 384 bits, 696 GB/s (14.5 Gb/s:
	// 7251 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "A40", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 84, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1740,
		MemClockMHz: 7251, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 696, L2Bytes: 6 * miB, MemoryGiB: 48,
		Source: "NVIDIA A40 datasheet (37.4 TFLOP/s, 696 GB/s); Ampere GA102 whitepaper", DatasheetFP32TFLOPs: 37.4,
	}),
	// GA102. DS (GeForce RTX 3090 product page, Ampere GA102 WP): 10496
	// cores (82 SMs), 1695 MHz boost, 24 GB GDDR6X on 384 bits at
	// 19.5 Gb/s = 936 GB/s (9751 MHz), 6 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 3090", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 82, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1695, BaseClockMHz: 1395,
		MemClockMHz: 9751, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 936, L2Bytes: 6 * miB, MemoryGiB: 24,
		Source: "NVIDIA GeForce RTX 3090 product page; Ampere GA102 whitepaper; Scan TekSpek table (35,581 GFLOP/s)", DatasheetFP32TFLOPs: 35.581,
	}),
	// GA106. Guru3D's RTX 4060 Ti table: 3584 cores, 1320/1777 MHz, 12.7
	// TFLOP/s, 12 GB on 192 bits, 360 GB/s (15 Gb/s). An 8 GB board on
	// 128 bits shares the name, so no memory size is kept. L2 3 MB (GA106),
	// not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 3060", Arch: "Ampere", Chip: "GA106", CC: "8.6",
		SMs: 28, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1777, BaseClockMHz: 1320,
		MemClockMHz: 7500, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 360, L2Bytes: 3 * miB,
		Source: "Guru3D, GeForce RTX 4060 Ti GPU pictured (NVIDIA's spec table: 12.7 TFLOP/s, 360 GB/s); alldbin comparison page (192 bits, 15 Gb/s)", DatasheetFP32TFLOPs: 12.7,
		Unverified: []string{"L2"},
	}),
	// GA104. Scan TekSpek / HEXUS: 4864 cores, boost 1665 MHz, 16,197
	// GFLOP/s, 14 Gb/s on 256 bits = 448 GB/s; Tom's Hardware: GA104 has 4
	// MB L2. (A later GDDR6X board of the same name has 608 GB/s.)
	withLimits(Spec{
		Name: "GeForce RTX 3060 Ti", Arch: "Ampere", Chip: "GA104", CC: "8.6",
		SMs: 38, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1665, BaseClockMHz: 1410,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (16,197 GFLOP/s); Guru3D (1410 MHz base); Tom's Hardware RTX 3080 Ti table (GA104: 4 MB L2)", DatasheetFP32TFLOPs: 16.197,
	}),
	// GA104. Scan TekSpek / HEXUS: 5888 cores, 1500/1725 MHz, 20,314
	// GFLOP/s, 14 Gb/s on 256 bits = 448 GB/s; Tom's Hardware: 4 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 3070", Arch: "Ampere", Chip: "GA104", CC: "8.6",
		SMs: 46, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1725, BaseClockMHz: 1500,
		MemClockMHz: 7000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (20,314 GFLOP/s); Tom's Hardware RTX 3080 Ti table (4 MB L2)", DatasheetFP32TFLOPs: 20.314,
	}),
	// GA104, the full chip: 48 SMs, 6144 cores (Gamersky's RTX 3070 Ti
	// review), GDDR6X at 19 Gb/s on 256 bits = 608 GB/s (the whitepaper
	// as a Chinese review quotes it; 608 GB/s in a review of the RTX 4070
	// Ti). The 1575/1770 MHz clocks are NVIDIA's usual figures, not stated
	// by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 3070 Ti", Arch: "Ampere", Chip: "GA104", CC: "8.6",
		SMs: 48, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1770, BaseClockMHz: 1575,
		MemClockMHz: 9500, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 608, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source:     "Gamersky, RTX 3070 Ti review (48 SMs, 6144 cores); handmsg.com review (19 Gb/s GDDR6X, 256 bits); praeco-medii-aevi RTX 4070 Ti review (608 GB/s)",
		Unverified: []string{"boost clock", "base clock"},
	}),
	// GA102. Scan TekSpek / HEXUS: 8704 cores, 1440/1710 MHz, 29,768
	// GFLOP/s, 19 Gb/s on 320 bits = 760 GB/s; Tom's Hardware: 5 MB L2.
	// (A 12 GB board of 70 SMs on 384 bits shares the name.)
	withLimits(Spec{
		Name: "GeForce RTX 3080", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 68, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1710, BaseClockMHz: 1440,
		MemClockMHz: 9500, BusWidthBits: 320, DataRate: 2, DatasheetBandwidth: 760, L2Bytes: 5 * miB,
		Source: "NVIDIA reference specs as tabled by Scan TekSpek and HEXUS (29,768 GFLOP/s); TechPowerUp Ampere architecture article (68 SMs, 320 bits, 19 Gb/s, 760 GB/s); Tom's Hardware (5 MB L2)", DatasheetFP32TFLOPs: 29.768,
	}),
	// GA102 with 80 SMs (TechPowerUp, as a news digest reports it) and 12
	// GB on 384 bits; 19 Gb/s GDDR6X = 912 GB/s, as the 12 GB RTX 3080 of
	// the same memory system. Clocks (1365/1665 MHz) and the 6 MB L2 are
	// NVIDIA's usual figures, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 3080 Ti", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 80, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1665, BaseClockMHz: 1365,
		MemClockMHz: 9500, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 912, L2Bytes: 6 * miB, MemoryGiB: 12,
		Source:     "TechPowerUp news via tarekgt.com (80 SMs, 12 GB, 384 bits); se7en.ws, RTX 3080 12 GB launch (19 Gb/s on 384 bits = 912 GB/s)",
		Unverified: []string{"boost clock", "base clock", "L2"},
	}),
	// GA102, the full chip. TweakTown: 84 SMs, 10752 cores, 1560/1860
	// MHz, 40 TFLOP/s, 24 GB of 21 Gb/s GDDR6X on 384 bits = 1008 GB/s.
	withLimits(Spec{
		Name: "GeForce RTX 3090 Ti", Arch: "Ampere", Chip: "GA102", CC: "8.6",
		SMs: 84, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1860, BaseClockMHz: 1560,
		MemClockMHz: 10501, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 1008, L2Bytes: 6 * miB, MemoryGiB: 24,
		Source: "TweakTown, NVIDIA GeForce RTX 3090 Ti: full specs (40 TFLOP/s, 1008 GB/s); Tom's Hardware RTX 3080 Ti table (GA102: 6 MB L2)", DatasheetFP32TFLOPs: 40,
	}),
	// GA10B. DS (Jetson AGX Orin series datasheet): 2048 cores (16 SMs)
	// at up to 1300 MHz, 64 GB LPDDR5 on 256 bits, 204.8 GB/s (6400 MT/s:
	// 3200 MHz), 4 MB L2. Memory is shared with the CPU.
	withLimits(Spec{
		Name: "Jetson AGX Orin", Aliases: []string{"Orin", "Jetson Orin"}, Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 16, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1300,
		MemClockMHz: 3200, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 204.8, L2Bytes: 4 * miB, MemoryGiB: 64,
		Source: "NVIDIA Jetson AGX Orin series datasheet",
	}),
	// GA10B with 8 SMs. NVIDIA Jetson Orin Nano series datasheet: 1024
	// cores at up to 625 MHz, 8 GB of LPDDR5 on 128 bits, 68 GB/s (clock
	// derived = 2133 MHz). CUDA names every Orin "Orin"; name the module
	// with --device. L2 as the AGX Orin's 4 MB, not stated for this module.
	withLimits(Spec{
		Name: "Jetson Orin Nano 8GB", Aliases: []string{"Jetson Orin Nano"}, Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 8, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 625,
		MemClockMHz: 2133, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 68, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source:     "NVIDIA Jetson Orin Nano series datasheet (1024 cores, 625 MHz, 128-bit LPDDR5); Orin Nano Super developer kit datasheet (68 GB/s before the update)",
		Unverified: []string{"L2"},
	}),
	// The same module at the clocks of JetPack 6.1's "Super" mode: 1020
	// MHz GPU, LPDDR5 at 3200 MHz = 102 GB/s.
	withLimits(Spec{
		Name: "Jetson Orin Nano Super", Aliases: []string{"Jetson Orin Nano 8GB Super"}, Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 8, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 1020,
		MemClockMHz: 3200, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 102, L2Bytes: 4 * miB, MemoryGiB: 8,
		Source:     "NVIDIA Jetson Orin Nano Super developer kit datasheet as summarised by brojogopalsapui.com (1.02 GHz; 128-bit LPDDR5, 102 GB/s)",
		Unverified: []string{"L2"}, NameOnly: true,
	}),
	// GA10B with 4 SMs. Orin Nano datasheet: 512 cores at 625 MHz, 4 GB of
	// LPDDR5 on 64 bits; 34 GB/s (half the 8 GB module's), clock as the
	// 8 GB module's.
	withLimits(Spec{
		Name: "Jetson Orin Nano 4GB", Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 4, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 625,
		MemClockMHz: 2133, BusWidthBits: 64, DataRate: 2, DatasheetBandwidth: 34, L2Bytes: 4 * miB, MemoryGiB: 4,
		Source:     "NVIDIA Jetson Orin Nano series datasheet (512 cores, 625 MHz, 64-bit LPDDR5)",
		Unverified: []string{"bandwidth", "L2"},
	}),
	// GA10B with 8 SMs, 16 GB of LPDDR5 on 128 bits at 102.4 GB/s; 918
	// MHz. The Orin NX datasheet at hand carries no GPU figures in the
	// part that could be read; these are NVIDIA's published module specs
	// as commonly quoted, not checked here.
	withLimits(Spec{
		Name: "Jetson Orin NX 16GB", Aliases: []string{"Jetson Orin NX"}, Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 8, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 918,
		MemClockMHz: 3200, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 102.4, L2Bytes: 4 * miB, MemoryGiB: 16,
		Source:     "NVIDIA Jetson Orin NX series data sheet DS-10712-001 (module); figures not confirmed here",
		Unverified: []string{"SM clock", "bandwidth", "L2"},
	}),
	// GA10B with 14 SMs: the 32 GB AGX Orin module, 1792 cores at 930
	// MHz, 204.8 GB/s; not checked against a source at hand.
	withLimits(Spec{
		Name: "Jetson AGX Orin 32GB", Arch: "Ampere", Chip: "GA10B", CC: "8.7",
		SMs: 14, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 930,
		MemClockMHz: 3200, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 204.8, L2Bytes: 4 * miB, MemoryGiB: 32,
		Source:     "NVIDIA Jetson AGX Orin series datasheet (32 GB module); figures not confirmed here",
		Unverified: []string{"SMs", "SM clock", "bandwidth", "L2"},
	}),

	// --- Ada (CC 8.9). ---

	// AD104. DS (L4 datasheet): 7424 cores (58 SMs), 2040 MHz boost
	// (30.3 SP TFLOP/s), 24 GB GDDR6 on 192 bits, 300 GB/s (12.5 Gb/s:
	// 6251 MHz), 48 MB L2.
	withLimits(Spec{
		Name: "L4", Arch: "Ada", Chip: "AD104", CC: "8.9",
		SMs: 58, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2040, BaseClockMHz: 795,
		MemClockMHz: 6251, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 300, L2Bytes: 48 * miB, MemoryGiB: 24,
		Source: "NVIDIA L4 datasheet (30.3 TFLOP/s, 300 GB/s)", DatasheetFP32TFLOPs: 30.3,
	}),
	// AD102. DS (L40 datasheet): 18176 cores (142 SMs), 2490 MHz boost
	// (90.5 SP TFLOP/s), 48 GB GDDR6 on 384 bits, 864 GB/s (18 Gb/s:
	// 9001 MHz), 96 MB L2.
	withLimits(Spec{
		Name: "L40", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2490,
		MemClockMHz: 9001, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 864, L2Bytes: 96 * miB, MemoryGiB: 48,
		Source: "NVIDIA L40 datasheet (90.5 TFLOP/s, 864 GB/s)", DatasheetFP32TFLOPs: 90.5,
	}),
	// AD102. DS (L40S datasheet): as the L40 at 2520 MHz boost (91.6 SP
	// TFLOP/s); 864 GB/s.
	withLimits(Spec{
		Name: "L40S", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2520,
		MemClockMHz: 9001, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 864, L2Bytes: 96 * miB, MemoryGiB: 48,
		Source: "NVIDIA L40S datasheet (91.6 TFLOP/s, 864 GB/s)", DatasheetFP32TFLOPs: 91.6,
	}),
	// AD102. DS (GeForce RTX 4090 product page, Ada WP): 16384 cores (128
	// SMs), 2520 MHz boost, 24 GB GDDR6X on 384 bits at 21 Gb/s =
	// 1008 GB/s (10501 MHz), 72 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 4090", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 128, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2520, BaseClockMHz: 2235,
		MemClockMHz: 10501, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 1008, L2Bytes: 72 * miB, MemoryGiB: 24,
		Source: "NVIDIA GeForce RTX 4090 product page; Ada GPU architecture whitepaper (82.6 TFLOP/s, 1008 GB/s, 72 MB L2; as tabled by Tom's Hardware and Club386)", DatasheetFP32TFLOPs: 82.6,
	}),
	// AD107. A GPU database page (TechPowerUp's figures): 24 SMs,
	// 1830/2460 MHz, 15.11 TFLOP/s, 8 GB of 17 Gb/s GDDR6 on 128 bits =
	// 272 GB/s, 24 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 4060", Arch: "Ada", Chip: "AD107", CC: "8.9",
		SMs: 24, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2460, BaseClockMHz: 1830,
		MemClockMHz: 8500, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 272, L2Bytes: 24 * miB, MemoryGiB: 8,
		Source: "fpsbench.com, RTX 4060 vs T600 (24 SMs, 2460 MHz, 15.11 TFLOP/s, 272 GB/s, 24 MB L2)", DatasheetFP32TFLOPs: 15.11,
	}),
	// AD106. The FPS Review: 34 SMs, 2310/2535 MHz, 18 Gb/s GDDR6 on 128
	// bits = 288 GB/s, 32 MB L2; Guru3D: 22 TFLOP/s. 8 and 16 GB boards
	// share the name.
	withLimits(Spec{
		Name: "GeForce RTX 4060 Ti", Arch: "Ada", Chip: "AD106", CC: "8.9",
		SMs: 34, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2535, BaseClockMHz: 2310,
		MemClockMHz: 9000, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 288, L2Bytes: 32 * miB,
		Source: "The FPS Review, RTX 4060 Ti review (34 SMs, clocks, 288 GB/s, 32 MB L2); Guru3D (22 TFLOP/s)", DatasheetFP32TFLOPs: 22,
	}),
	// AD104. The FPS Review: 46 SMs, 1920/2475 MHz, 12 GB of 21 Gb/s
	// GDDR6X on 192 bits = 504 GB/s; 36 MB L2 (NVIDIA's RTX 4070 SUPER
	// correction, as reported).
	withLimits(Spec{
		Name: "GeForce RTX 4070", Arch: "Ada", Chip: "AD104", CC: "8.9",
		SMs: 46, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2475, BaseClockMHz: 1920,
		MemClockMHz: 10501, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 504, L2Bytes: 36 * miB, MemoryGiB: 12,
		Source: "The FPS Review, RTX 4070 GPU family specifications; news-usa.today, RTX 4070 SUPER L2 correction (RTX 4070: 36 MB)",
	}),
	// AD104 with 56 SMs, 7168 cores and 48 MB L2 (NVIDIA's corrected
	// figure, as reported). Memory as the RTX 4070 and clocks of
	// 1980/2475 MHz: NVIDIA's usual figures, not stated by a source at
	// hand.
	withLimits(Spec{
		Name: "GeForce RTX 4070 SUPER", Arch: "Ada", Chip: "AD104", CC: "8.9",
		SMs: 56, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2475, BaseClockMHz: 1980,
		MemClockMHz: 10501, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 504, L2Bytes: 48 * miB, MemoryGiB: 12,
		Source:     "news-usa.today, RTX 4070 SUPER L2 correction (56 of 60 SMs, 48 MB L2); oreateai.com (7168 cores)",
		Unverified: []string{"boost clock", "base clock", "bandwidth"},
	}),
	// AD104, the full chip. NVIDIA's Ada whitepaper (as the launched "RTX
	// 4080 12GB", tabled by Tom's Hardware and Club386): 60 SMs, 2610
	// MHz, 40.1 TFLOP/s, 21 Gb/s on 192 bits = 504 GB/s, 48 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 4070 Ti", Arch: "Ada", Chip: "AD104", CC: "8.9",
		SMs: 60, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2610, BaseClockMHz: 2310,
		MemClockMHz: 10501, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 504, L2Bytes: 48 * miB, MemoryGiB: 12,
		Source: "NVIDIA Ada GPU architecture whitepaper as tabled by Tom's Hardware and Club386 (40.1 TFLOP/s, 504 GB/s, 48 MB L2); purespecs (2310 MHz base)", DatasheetFP32TFLOPs: 40.1,
	}),
	// AD103 with 66 SMs: a deviceQuery of the card (66 multiprocessors,
	// 2610 MHz clock rate, 16 GB) and Hugging Face's hardware page (44.1
	// TFLOP/s). 21 Gb/s on 256 bits = 672 GB/s and 48 MB L2 are NVIDIA's
	// usual figures, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 4070 Ti SUPER", Arch: "Ada", Chip: "AD103", CC: "8.9",
		SMs: 66, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2610,
		MemClockMHz: 10501, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 672, L2Bytes: 48 * miB, MemoryGiB: 16,
		Source: "deviceQuery gist of an RTX 4070 Ti SUPER (66 SMs, 2610000 kHz, 16 GB); huggingface.co/hardware/rtx-4070-ti-super (44.1 TFLOP/s)", DatasheetFP32TFLOPs: 44.1,
		Unverified: []string{"bandwidth", "L2"},
	}),
	// AD103. NVIDIA's Ada whitepaper as tabled by Club386: 76 SMs, 2505
	// MHz, 48.7 TFLOP/s, 22.4 Gb/s on 256 bits = 717 GB/s, 64 MB L2.
	withLimits(Spec{
		Name: "GeForce RTX 4080", Arch: "Ada", Chip: "AD103", CC: "8.9",
		SMs: 76, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2505,
		MemClockMHz: 11200, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 717, L2Bytes: 64 * miB, MemoryGiB: 16,
		Source: "NVIDIA Ada GPU architecture whitepaper as tabled by Club386 and Tom's Hardware (48.7 TFLOP/s, 22.4 Gb/s, 717 GB/s, 64 MB L2)", DatasheetFP32TFLOPs: 48.7,
	}),
	// AD103, the full chip: 10240 cores, 52.22 TFLOP/s (a GPU spec data
	// set on Hugging Face; 52.22 / (80 × 256) gives the 2550 MHz boost);
	// 23 Gb/s on 256 bits = 736 GB/s (Neowin's table). 64 MB L2 as the
	// RTX 4080, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 4080 SUPER", Arch: "Ada", Chip: "AD103", CC: "8.9",
		SMs: 80, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2550,
		MemClockMHz: 11500, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 736, L2Bytes: 64 * miB, MemoryGiB: 16,
		Source: "huggingface.co/datasets/ohdoking/gpu_spec (10240 cores, 52.22 TFLOP/s); Neowin, RTX 5080 rumour table (RTX 4080 series: 23 Gb/s, 736 GB/s)", DatasheetFP32TFLOPs: 52.22,
		Unverified: []string{"L2"},
	}),

	// AD102. DS: 18176 cores (142 SMs), 2505 MHz boost, 91.1 SP TFLOP/s,
	// 960 GB/s GDDR6 on 384 bits (20 Gb/s: clock derived = 10000 MHz),
	// 96 MB L2, FP64 at 1/64.
	withLimits(Spec{
		Name: "RTX 6000 Ada Generation", Arch: "Ada", Chip: "AD102", CC: "8.9",
		SMs: 142, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2505, BaseClockMHz: 915,
		MemClockMHz: 10000, BusWidthBits: 384, DataRate: 2, DatasheetBandwidth: 960, L2Bytes: 96 * miB, MemoryGiB: 48,
		Source: "NVIDIA RTX 6000 Ada Generation datasheet (91.1 TFLOP/s, 960 GB/s)", DatasheetFP32TFLOPs: 91.1,
	}),

	// --- Hopper (CC 9.0): GH100, 128 FP32 and 64 FP64 lanes per SM. ---

	// GH100 SXM5 80 GB. WP/DS: 132 SMs, 1980 MHz boost (67 SP / 34 DP
	// TFLOP/s), five HBM3 stacks on 5120 bits at 2619 MHz = 3.35 TB/s,
	// 50 MB L2.
	withLimits(Spec{
		Name: "H100 SXM5 80GB", Aliases: []string{"H100 80GB HBM3", "H100-SXM5-80GB", "H100 SXM", "H100 SXM5"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1980,
		MemClockMHz: 2619, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 3350, L2Bytes: 50 * miB, MemoryGiB: 80,
		Source: "NVIDIA H100 datasheet (67 TFLOP/s, 3.35 TB/s); Hopper whitepaper", DatasheetFP32TFLOPs: 67,
	}),
	// GH100 PCIe 80 GB. DS: 114 SMs, 1755 MHz boost (51 SP / 26 DP
	// TFLOP/s), HBM2e on 5120 bits, "2 TB/s". 1593 MHz is the HBM2e speed
	// grade of the A100 80GB (2039 GB/s); NVIDIA rounds to 2 TB/s, 1.9%
	// below the computed peak.
	withLimits(Spec{
		Name: "H100 PCIe", Aliases: []string{"H100 PCIe 80GB"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 114, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1755,
		MemClockMHz: 1593, BusWidthBits: 5120, DataRate: 2, DatasheetBandwidth: 2000, L2Bytes: 50 * miB, MemoryGiB: 80,
		Source: "NVIDIA H100 datasheet (51 TFLOP/s, 2 TB/s)", DatasheetFP32TFLOPs: 51,
	}),
	// GH100 NVL, 94 GB. DS (H100 datasheet): 3.9 TB/s on 6144 bits
	// (clock derived = 2539 MHz), 1785 MHz boost (60 SP / 30 DP
	// TFLOP/s for 132 SMs), 50 MB L2.
	withLimits(Spec{
		Name: "H100 NVL", Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1785,
		MemClockMHz: 2539, BusWidthBits: 6144, DataRate: 2, DatasheetBandwidth: 3900, L2Bytes: 50 * miB, MemoryGiB: 94,
		NeedsMemoryClue: true,
		Source:          "NVIDIA H100 datasheet (60 TFLOP/s, 3.9 TB/s)", DatasheetFP32TFLOPs: 60,
	}),
	// GH100 with six HBM3e stacks (141 GB). DS: 4.8 TB/s on 6144 bits
	// (6.25 Gb/s: clock derived = 3125 MHz); compute as H100 SXM5. L2:
	// 60 MiB, as the device attribute of the H200 capture in fixtures/ncu
	// reports it (62914560 B; the H100's reads 52428800), with 6016 bits of
	// bus enabled, a memory clock of 3201 MHz and 139.8 GiB.
	withLimits(Spec{
		Name: "H200", Aliases: []string{"H200 SXM"}, Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1980,
		MemClockMHz: 3125, BusWidthBits: 6144, DataRate: 2, DatasheetBandwidth: 4800, L2Bytes: 60 * miB, MemoryGiB: 141,
		Source: "NVIDIA H200 datasheet (141 GB, 4.8 TB/s); compute as the H100 SXM5; L2 from the H200 capture's device attribute",
	}),
	// The H200 NVL (PCIe, 600 W): the H200's memory; NVIDIA's 60 TFLOP/s
	// FP32 gives the H100 NVL's 1785 MHz for 132 SMs. Only its name tells
	// it from the SXM board.
	withLimits(Spec{
		Name: "H200 NVL", Arch: "Hopper", Chip: "GH100", CC: "9.0",
		SMs: 132, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1785,
		MemClockMHz: 3125, BusWidthBits: 6144, DataRate: 2, DatasheetBandwidth: 4800, L2Bytes: 60 * miB, MemoryGiB: 141,
		Source:     "NVIDIA H200 datasheet (H200 NVL: 141 GB, 4.8 TB/s, 60 TFLOP/s FP32); saulelectric H200 overview (600 W PCIe board)",
		Unverified: []string{"SM clock"}, NameOnly: true,
	}),

	// --- Blackwell: datacenter GB100 (CC 10.0) and GeForce GB202 (CC 12.0). ---

	// B200: two GB100 dies, 148 SMs, eight HBM3e stacks on 8192 bits.
	// DS: 8 TB/s (7.8 Gb/s: clock derived = 3906.25 MHz). NVIDIA does not
	// publish an SM clock; 1965 MHz (max clock reported by nvidia-smi)
	// gives 37.2 FP64 TFLOP/s, NVIDIA's revised HGX figure is 37 (earlier
	// 40). L2 126 MB (measured by Chips and Cheese). Treat the FLOP peaks
	// as ±7%.
	withLimits(Spec{
		Name: "B200", Aliases: []string{"HGX B200"}, Arch: "Blackwell", Chip: "GB100", CC: "10.0",
		SMs: 148, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 1965,
		MemClockMHz: 3906.25, BusWidthBits: 8192, DataRate: 2, DatasheetBandwidth: 8000, L2Bytes: 126 * miB, MemoryGiB: 180,
		Source: "NVIDIA B200/HGX B200 datasheet (8 TB/s, FP64 37 TFLOP/s); SM clock as nvidia-smi reports it; L2 measured by Chips and Cheese",
	}),
	// One Blackwell GPU of a GB200 superchip: hmc-tech's page gives the
	// superchip 2 × 18944 cores (148 SMs each) at 2112 MHz, 160.04 FP32
	// and 80.02 FP64 TFLOP/s for the two GPUs. 8 TB/s per GPU as the
	// B200's; memory and L2 as the B200's, not stated by a source at hand.
	withLimits(Spec{
		Name: "GB200", Arch: "Blackwell", Chip: "GB100", CC: "10.0",
		SMs: 148, CoresPerSM: 128, FP64PerSM: 64, SMClockMHz: 2112,
		MemClockMHz: 3906.25, BusWidthBits: 8192, DataRate: 2, DatasheetBandwidth: 8000, L2Bytes: 126 * miB,
		Source: "hmc-tech.com, NVIDIA H100 vs H200 SXM vs GB200 (2 × 18944 cores, 2112 MHz, 160.04 TFLOP/s for two GPUs)", DatasheetFP32TFLOPs: 80.02,
		Unverified: []string{"bandwidth", "L2"},
	}),
	// GB202. DS: 21760 cores (170 SMs), 2010/2407 MHz, 104.8 SP TFLOP/s,
	// 28 Gb/s GDDR7 on 512 bits = 1792 GB/s (clock derived = 14000 MHz),
	// 96 MB L2, FP64 at 1/64.
	withLimits(Spec{
		Name: "GeForce RTX 5090", Arch: "Blackwell", Chip: "GB202", CC: "12.0",
		SMs: 170, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2407, BaseClockMHz: 2010,
		MemClockMHz: 14000, BusWidthBits: 512, DataRate: 2, DatasheetBandwidth: 1792, L2Bytes: 96 * miB, MemoryGiB: 32,
		Source: "NVIDIA GeForce RTX 5090 product page; RTX 50 series CES 2025 table as TweakTown prints it (21760 cores, 2.41 GHz, 1792 GB/s)", DatasheetFP32TFLOPs: 104.8,
	}),
	// GB203, the full chip. NVIDIA's CES 2025 table (TweakTown): 10752
	// cores (84 SMs), 2.30/2.62 GHz, 16 GB of GDDR7 on 256 bits, 960 GB/s
	// (30 Gb/s). L2 64 MB, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 5080", Arch: "Blackwell", Chip: "GB203", CC: "12.0",
		SMs: 84, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2617, BaseClockMHz: 2295,
		MemClockMHz: 15000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 960, L2Bytes: 64 * miB, MemoryGiB: 16,
		Source:     "NVIDIA RTX 50 series CES 2025 table as TweakTown prints it (10752 cores, 2.62 GHz, 960 GB/s); topcpu.net (84 SMs)",
		Unverified: []string{"L2"},
	}),
	// GB203 with 70 SMs. CES 2025 table: 8960 cores, 2.30/2.45 GHz, 16 GB
	// of 28 Gb/s GDDR7 on 256 bits = 896 GB/s. L2 48 MB, not stated by a
	// source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 5070 Ti", Arch: "Blackwell", Chip: "GB203", CC: "12.0",
		SMs: 70, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2452, BaseClockMHz: 2295,
		MemClockMHz: 14000, BusWidthBits: 256, DataRate: 2, DatasheetBandwidth: 896, L2Bytes: 48 * miB, MemoryGiB: 16,
		Source:     "NVIDIA RTX 50 series CES 2025 table as TweakTown prints it (8960 cores, 2.45 GHz, 896 GB/s); topcpu.net (70 SMs, 28 Gb/s)",
		Unverified: []string{"L2"},
	}),
	// GB205 with 48 SMs. CES 2025 table: 6144 cores, 2.16/2.51 GHz, 12 GB
	// of GDDR7 on 192 bits; 28 Gb/s (Tom's Hardware's table of the RTX 50
	// stack) = 672 GB/s. L2 48 MB, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 5070", Arch: "Blackwell", Chip: "GB205", CC: "12.0",
		SMs: 48, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2512, BaseClockMHz: 2160,
		MemClockMHz: 14000, BusWidthBits: 192, DataRate: 2, DatasheetBandwidth: 672, L2Bytes: 48 * miB, MemoryGiB: 12,
		Source:     "NVIDIA RTX 50 series CES 2025 table as TweakTown prints it (6144 cores, 2.51 GHz, 192 bits); Tom's Hardware RTX 5060 Ti table (48 SMs)",
		Unverified: []string{"bandwidth", "L2"},
	}),
	// GB206, the full chip: 36 SMs, 4608 cores, 2407/2572 MHz, 28 Gb/s
	// GDDR7 on 128 bits = 448 GB/s (Tom's Hardware, Ars Technica's review
	// table). 8 and 16 GB boards share the name. L2 32 MB, not stated by a
	// source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 5060 Ti", Arch: "Blackwell", Chip: "GB206", CC: "12.0",
		SMs: 36, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2572, BaseClockMHz: 2407,
		MemClockMHz: 14000, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 32 * miB,
		Source:     "Tom's Hardware, RTX 5060 Ti final specs (36 SMs, 4608 cores, 28 Gb/s, 448 GB/s); RTX 5060 / 5060 Ti review table (2572 MHz boost); gamegpu (2407 MHz base)",
		Unverified: []string{"L2"},
	}),
	// GB206 with 30 SMs: 3840 cores, 2497 MHz boost, 8 GB of 28 Gb/s GDDR7
	// on 128 bits = 448 GB/s. L2 32 MB, not stated by a source at hand.
	withLimits(Spec{
		Name: "GeForce RTX 5060", Arch: "Blackwell", Chip: "GB206", CC: "12.0",
		SMs: 30, CoresPerSM: 128, FP64PerSM: 2, SMClockMHz: 2497,
		MemClockMHz: 14000, BusWidthBits: 128, DataRate: 2, DatasheetBandwidth: 448, L2Bytes: 32 * miB, MemoryGiB: 8,
		Source:     "Tom's Hardware, RTX 5060 Ti final specs (RTX 5060: 30 SMs, 3840 cores); RTX 5060 / 5060 Ti review table (2497 MHz, 448 GB/s)",
		Unverified: []string{"L2"},
	}),
}

// withLimits fills the per-CC fields of s: limits and the memory model's
// rules. A CC without limits in ccTable is a bug in this file, caught by
// TestSpecsComplete.
func withLimits(s Spec) *Spec {
	key, _ := ccKey(s.CC)
	row, _ := ccRowOf(key)
	l := row.limits
	s.MaxWarpsPerSM = l.warps
	s.MaxBlocksPerSM = l.blocks
	s.RegistersPerSM = l.regs
	s.L1SharedPerSMBytes = l.l1Shared
	s.MaxSharedPerSMBytes = l.maxShared
	s.SharedBanks = l.banks
	s.BankWidthBytes = 4
	s.BankWidth8 = l.bank8
	s.WarpSize = 32
	s.Rules, _ = RulesOf(s.CC)
	return &s
}
