package gpumodel

import "strings"

// tensorRates are the dense tensor-core peaks of a chip as multiples of its
// FP32 FMA peak, per operand type, from NVIDIA's datasheets: H100 SXM5
// 66.9 TFLOP/s FP32, 494.7 TF32, 989.4 BF16/FP16, 1978.9 FP8/INT8, 66.9
// FP64 tensor; A100 19.5 FP32, 156 TF32, 312 BF16/FP16, 624 INT8, 19.5
// FP64 tensor.
var tensorRates = map[string]map[string]float64{
	"GH100": {"tf32": 494.7 / 66.9, "bf16": 989.4 / 66.9, "fp16": 989.4 / 66.9, "fp8": 1978.9 / 66.9, "int8": 1978.9 / 66.9, "fp64": 1},
	"GA100": {"tf32": 156 / 19.5, "bf16": 312 / 19.5, "fp16": 312 / 19.5, "int8": 624 / 19.5, "fp64": 1},
}

// PeakTensor is the dense tensor-core peak in FLOP/s for operands of type
// src ("tf32", "bf16", "fp16", "fp8", "int8", "fp64"; ncu's counter names
// such as "fp8_e4m3" or "int8" are read by their prefix); 0 when the
// table does not know the chip or the type.
func (s *Spec) PeakTensor(src string) float64 {
	rates := tensorRates[s.Chip]
	if rates == nil {
		return 0
	}
	for t, r := range rates {
		if strings.HasPrefix(src, t) {
			return r * s.PeakFP32()
		}
	}
	return 0
}
