// Package strs holds tiny benchmarks whose output perfreg's Go benchmark
// reader is tested on (tests/data/gobench/*.txt; see tests/data/README.md).
package strs

import (
	"strings"
	"testing"
)

var sink string

// BenchmarkConcat allocates, so -benchmem reports B/op and allocs/op; it
// also reports a custom metric and logs once, so that `go test -v`
// prints its name on a line of its own.
func BenchmarkConcat(b *testing.B) {
	b.Log("concatenating 8 words")
	words := []string{"a", "bb", "ccc", "dddd", "e", "ff", "ggg", "hhhh"}
	for i := 0; i < b.N; i++ {
		s := ""
		for _, w := range words {
			s += w
		}
		sink = s
	}
	b.ReportMetric(float64(len(words)), "words/op")
}

// BenchmarkSum has the same name as a benchmark of package sum, so that
// `go test ./...` output has one name in two packages.
func BenchmarkSum(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < b.N; i++ {
		sb.Reset()
		sb.WriteString("sum")
		sink = sb.String()
	}
}
