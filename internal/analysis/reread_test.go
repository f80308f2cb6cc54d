package analysis

import "testing"

func TestRuntimeIndexed(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"for (int i = t; i < n4; i += stride) { const float4 v = x[i]; m[0] += v.x; }", "x[i]"},
		{"m[2] = fminf(m[2], x [ i ]);", "x[i]"},
		{"y[i] = a * x[i] + y[i];", ""},
		{"m[0] += m[1];", ""},
		{"", ""},
	} {
		if got := runtimeIndexed(c.src); got != c.want {
			t.Errorf("runtimeIndexed(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
