package rules

import (
	"regexp"
	"testing"

	"github.com/profan-dev/profan/internal/kernelname"
)

// TestLibraryAdviceInCUDATerms: on a capture with no PyTorch in it, no
// library kernel's advice names a PyTorch API, whatever its kind.
func TestLibraryAdviceInCUDATerms(t *testing.T) {
	torchAPI := regexp.MustCompile(`torch\.|autocast|DataLoader|pin_memory|foreach|channels_last|\.contiguous\(\)|zero_grad|scaled_dot_product_attention|bucket_cap_mb`)
	for k := kernelname.Other; k <= kernelname.Attention; k++ {
		for _, lib := range []kernelname.Library{kernelname.CUB, kernelname.CUBLAS, kernelname.CUDNN} {
			info := kernelname.Info{Library: lib, Kind: k}
			if k == kernelname.Attention {
				info.Category = kernelname.CatAttention
			}
			for what, adv := range map[string]string{
				"shape":  shapeAdvice(info, false),
				"fusion": fusionAdvice(info, false),
				"choice": kernelChoiceAdvice(info, false),
			} {
				if m := torchAPI.FindString(adv); m != "" {
					t.Errorf("%s %s kernel, %s advice: names PyTorch's %q: %s", lib, k, what, m, adv)
				}
			}
		}
	}
}
