package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkSetup measures New + SetRoots on a generated tree of 5,000 directories and 50,000 files: time
// per set-up, allocations, and the Go heap and process RSS still in use once the watches are in place
// (kernel memory for the watches is not included).
func BenchmarkSetup(b *testing.B) {
	dir := tempDir(b)
	const dirs, filesPerDir = 5000, 10
	for i := range dirs {
		d := filepath.Join(dir, fmt.Sprintf("d%02d", i/100), fmt.Sprintf("s%02d", i%100))
		if i%100 == 0 {
			d = filepath.Join(dir, fmt.Sprintf("d%02d", i/100)) // 50 top-level directories, 99 below each
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range filesPerDir {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.go", j)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	var heap, rss float64
	for b.Loop() {
		heap0, rss0 := memNow()
		w, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := w.SetRoots([]string{dir}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		heap1, rss1 := memNow()
		heap, rss = heap+heap1-heap0, rss+rss1-rss0
		if got := w.Status().Watches; got != dirs+1 {
			b.Fatalf("Watches = %d, want %d", got, dirs+1)
		}
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(heap/float64(b.N)/(1<<20), "heap-MB")
	b.ReportMetric(rss/float64(b.N)/(1<<20), "rss-MB")
}

// memNow returns the live Go heap (after a GC) and the process RSS (0 where /proc is missing).
func memNow() (heap, rss float64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc), float64(vmRSS())
}

func vmRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}

// BenchmarkLatency measures the time from a write to the delivery of the batch reporting it, for 100
// writes with the default debounce, and reports the median and 99th percentile.
func BenchmarkLatency(b *testing.B) {
	dir := tempDir(b)
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	w := newWatcher(b, Options{}, dir)
	var lat []time.Duration
	for b.Loop() {
		for range 100 {
			start := time.Now()
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				b.Fatal(err)
			}
			f.WriteString("x")
			f.Close()
			collect(b, w, dir, func(g *got) bool { return slices.Contains(g.Changed, "f.txt") })
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}
