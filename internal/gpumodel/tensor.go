package gpumodel

import "strings"

// TensorCores are what a GPU's tensor cores take, per compute capability
// (CUDA C Programming Guide, warp matrix functions; the architecture
// whitepapers for the precisions and peaks).
type TensorCores struct {
	// Precisions are the input types the tensor cores multiply: "fp16",
	// "bf16", "tf32", "fp8", "fp4", "fp64", "int8".
	Precisions []string
	// Rates are the dense tensor-core peaks over the FP32 FFMA peak, per
	// operand type, on the data-center parts NVIDIA publishes both for
	// (A100: TF32 156 over 19.5 TFLOP/s, 8×; H100 SXM: 495 over 67,
	// 7.4×); nil where no such figure applies (consumer parts gain far
	// less).
	Rates map[string]float64
}

// Has reports whether the tensor cores take precision p.
func (t TensorCores) Has(p string) bool {
	for _, x := range t.Precisions {
		if x == p {
			return true
		}
	}
	return false
}

// Any reports whether the GPU has tensor cores at all.
func (t TensorCores) Any() bool { return len(t.Precisions) > 0 }

// TF32Ratio is the TF32 tensor-core peak over the FP32 FFMA peak; 0 where
// the table has no figure.
func (t TensorCores) TF32Ratio() float64 { return t.Rates["tf32"] }

// TensorCoresOf returns the tensor cores of compute capability cc (see
// RulesOf); none before 7.0 or when cc is not one.
func TensorCoresOf(cc string) TensorCores {
	r, _ := RulesOf(cc)
	return r.Tensor
}

// PeakTensor is the dense tensor-core peak in FLOP/s for operands of type
// src ("tf32", "bf16", "fp16", "fp8", "int8", "fp64"; ncu's counter names
// such as "fp8_e4m3" or "int8" are read by their prefix); 0 when the
// table has no rate for the GPU's compute capability and the type.
func (s *Spec) PeakTensor(src string) float64 {
	for t, r := range s.Rules.Tensor.Rates {
		if strings.HasPrefix(src, t) {
			return r * s.PeakFP32()
		}
	}
	return 0
}
