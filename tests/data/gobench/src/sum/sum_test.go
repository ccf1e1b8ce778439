// Package sum holds tiny benchmarks whose output perfreg's Go benchmark
// reader is tested on (tests/data/gobench/*.txt; see tests/data/README.md).
package sum

import (
	"fmt"
	"testing"
)

func sum(v []int64) int64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return s
}

var sink int64

// BenchmarkSum reports ns/op and, through SetBytes, MB/s.
func BenchmarkSum(b *testing.B) {
	v := make([]int64, 4096)
	for i := range v {
		v[i] = int64(i)
	}
	b.SetBytes(int64(len(v) * 8))
	for i := 0; i < b.N; i++ {
		sink += sum(v)
	}
}

// BenchmarkSumSizes has sub-benchmarks named size=N.
func BenchmarkSumSizes(b *testing.B) {
	for _, n := range []int{16, 1024} {
		v := make([]int64, n)
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += sum(v)
			}
		})
	}
}
