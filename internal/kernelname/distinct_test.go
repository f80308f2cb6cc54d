package kernelname

import "testing"

// Names from the ResNet training step of fixtures/check6 that share a
// display each get the argument that tells them apart (the cutlass ones,
// 4 kB each, in the CLI's TestDistinctNames).
func TestDistinct(t *testing.T) {
	names := []string{
		"void at::<unnamed>::multi_tensor_apply_kernel<at::<unnamed>::TensorListMetadata<2>, at::<unnamed>::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(T1, T2, T3...)",
		"void at::<unnamed>::multi_tensor_apply_kernel<at::<unnamed>::TensorListMetadata<3>, at::<unnamed>::BinaryOpListAlphaFunctor<float, 3, 2, 2>, std::plus<float>, float>(T1, T2, T3...)",
		"copy(float *, const float *)",
	}
	displays := make([]string, len(names))
	for i, n := range names {
		displays[i] = display(n)
	}
	Distinct(names, displays)
	want := []string{
		"at::multi_tensor_apply_kernel<BinaryOpListAlphaFunctor, plus, …> [TensorListMetadata<2>]",
		"at::multi_tensor_apply_kernel<BinaryOpListAlphaFunctor, plus, …> [TensorListMetadata<3>]",
		"copy",
	}
	for i := range want {
		if displays[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, displays[i], want[i])
		}
	}
}
