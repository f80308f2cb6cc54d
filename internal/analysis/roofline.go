package analysis

import (
	"github.com/profan-dev/profan/internal/metrics"
)

// TensorType reads the operand type of most of a kernel's tensor-core
// operations from ncu's per-type counters (sm__ops_path_tensor_src_T[_dst_U].sum):
// T, and its share of them; "" when the kernel ran none.
func TensorType(a *Kernel) (string, float64) { return metrics.TensorType(a.Record) }
