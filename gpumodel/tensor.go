package gpumodel

// TensorCores are what a GPU's tensor cores take, per compute capability
// (CUDA C Programming Guide, warp matrix functions; the architecture
// whitepapers for the precisions and peaks).
type TensorCores struct {
	// Precisions are the input types the tensor cores multiply: "fp16",
	// "bf16", "tf32", "fp8", "fp4", "fp64", "int8".
	Precisions []string
	// TF32Ratio is the TF32 tensor-core peak over the FP32 FFMA peak on
	// the data-center parts NVIDIA publishes both for (A100: 156 over
	// 19.5 TFLOP/s, 8×; H100 SXM: 495 over 67, 7.4×); 0 where no such
	// figure applies (consumer parts gain far less).
	TF32Ratio float64
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

var tensorByCC = map[string]TensorCores{
	"7.0":  {Precisions: []string{"fp16"}},
	"7.2":  {Precisions: []string{"fp16", "int8"}},
	"7.5":  {Precisions: []string{"fp16", "int8"}},
	"8.0":  {Precisions: []string{"fp16", "bf16", "tf32", "fp64", "int8"}, TF32Ratio: 8},
	"8.6":  {Precisions: []string{"fp16", "bf16", "tf32", "int8"}},
	"8.7":  {Precisions: []string{"fp16", "bf16", "tf32", "int8"}},
	"8.9":  {Precisions: []string{"fp16", "bf16", "tf32", "fp8", "int8"}},
	"9.0":  {Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp64", "int8"}, TF32Ratio: 7.4},
	"10.0": {Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp4", "fp64", "int8"}, TF32Ratio: 7.4},
	"12.0": {Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp4", "int8"}},
}

// TensorCoresOf returns the tensor cores of compute capability cc (see
// RulesOf); none before 7.0 or when cc is not one.
func TensorCoresOf(cc string) TensorCores {
	r, _ := RulesOf(cc)
	return r.Tensor
}

// TensorCores returns what the GPU's tensor cores take.
func (s *Spec) TensorCores() TensorCores { return s.Rules.Tensor }
