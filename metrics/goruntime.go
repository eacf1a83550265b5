package metrics

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// goFamilies are the go_* series: the Go runtime's memory statistics, GC
// pauses, goroutines, threads and settings. They read runtime.MemStats and
// runtime/debug at scrape time (one stop-the-world read per scrape), not
// runtime/metrics, whose package set-up would cost every start of grove,
// metrics or not.
func goFamilies() []family {
	var ms memStatsCache
	mem := func(name, typ, help string, pick func(*runtime.MemStats) uint64) family {
		return family{name: name, help: help, typ: typ, collect: func(emit func(sample)) {
			emit(sample{value: float64(pick(ms.read()))})
		}}
	}
	gauge := func(name, help string, pick func(*runtime.MemStats) uint64) family {
		return mem(name, "gauge", help, pick)
	}
	return []family{
		{name: "go_gc_duration_seconds", typ: "summary",
			help:    "Stop-the-world pause durations of garbage collection cycles: quantiles over the last 256 pauses, sum and count over all.",
			collect: collectGCPauses},
		gaugeFunc("go_gc_gogc_percent", "Heap size target percentage: the GOGC environment variable's, otherwise 100 (-1: GOGC=off).", gogcPercent),
		gaugeFunc("go_gc_gomemlimit_bytes", "Go runtime memory limit: the GOMEMLIMIT environment variable's or debug.SetMemoryLimit's, otherwise math.MaxInt64.",
			func() float64 { return float64(debug.SetMemoryLimit(-1)) }),
		gaugeFunc("go_goroutines", "Number of goroutines that currently exist.", func() float64 { return float64(runtime.NumGoroutine()) }),
		{name: "go_info", typ: "gauge", help: "Information about the Go environment.", collect: func(emit func(sample)) {
			emit(sample{labels: []labelPair{{"version", runtime.Version()}}, value: 1})
		}},
		gauge("go_memstats_alloc_bytes", "Bytes of allocated heap objects (runtime.MemStats.Alloc).", func(m *runtime.MemStats) uint64 { return m.Alloc }),
		mem("go_memstats_alloc_bytes_total", "counter", "Cumulative bytes allocated for heap objects (runtime.MemStats.TotalAlloc).", func(m *runtime.MemStats) uint64 { return m.TotalAlloc }),
		gauge("go_memstats_buck_hash_sys_bytes", "Bytes of memory in profiling bucket hash tables (runtime.MemStats.BuckHashSys).", func(m *runtime.MemStats) uint64 { return m.BuckHashSys }),
		mem("go_memstats_frees_total", "counter", "Cumulative count of heap objects freed (runtime.MemStats.Frees).", func(m *runtime.MemStats) uint64 { return m.Frees }),
		gauge("go_memstats_gc_sys_bytes", "Bytes of memory in garbage collection metadata (runtime.MemStats.GCSys).", func(m *runtime.MemStats) uint64 { return m.GCSys }),
		gauge("go_memstats_heap_alloc_bytes", "Bytes of allocated heap objects, as go_memstats_alloc_bytes (runtime.MemStats.HeapAlloc).", func(m *runtime.MemStats) uint64 { return m.HeapAlloc }),
		gauge("go_memstats_heap_idle_bytes", "Bytes in idle (unused) heap spans (runtime.MemStats.HeapIdle).", func(m *runtime.MemStats) uint64 { return m.HeapIdle }),
		gauge("go_memstats_heap_inuse_bytes", "Bytes in in-use heap spans (runtime.MemStats.HeapInuse).", func(m *runtime.MemStats) uint64 { return m.HeapInuse }),
		gauge("go_memstats_heap_objects", "Number of allocated heap objects (runtime.MemStats.HeapObjects).", func(m *runtime.MemStats) uint64 { return m.HeapObjects }),
		gauge("go_memstats_heap_released_bytes", "Bytes of physical memory returned to the OS (runtime.MemStats.HeapReleased).", func(m *runtime.MemStats) uint64 { return m.HeapReleased }),
		gauge("go_memstats_heap_sys_bytes", "Bytes of heap memory obtained from the OS (runtime.MemStats.HeapSys).", func(m *runtime.MemStats) uint64 { return m.HeapSys }),
		{name: "go_memstats_last_gc_time_seconds", typ: "gauge", help: "Time the last garbage collection finished, in seconds since 1970 (0: none yet).",
			collect: func(emit func(sample)) { emit(sample{value: float64(ms.read().LastGC) / 1e9}) }},
		mem("go_memstats_mallocs_total", "counter", "Cumulative count of heap objects allocated (runtime.MemStats.Mallocs).", func(m *runtime.MemStats) uint64 { return m.Mallocs }),
		gauge("go_memstats_mcache_inuse_bytes", "Bytes of allocated mcache structures (runtime.MemStats.MCacheInuse).", func(m *runtime.MemStats) uint64 { return m.MCacheInuse }),
		gauge("go_memstats_mcache_sys_bytes", "Bytes of memory obtained from the OS for mcache structures (runtime.MemStats.MCacheSys).", func(m *runtime.MemStats) uint64 { return m.MCacheSys }),
		gauge("go_memstats_mspan_inuse_bytes", "Bytes of allocated mspan structures (runtime.MemStats.MSpanInuse).", func(m *runtime.MemStats) uint64 { return m.MSpanInuse }),
		gauge("go_memstats_mspan_sys_bytes", "Bytes of memory obtained from the OS for mspan structures (runtime.MemStats.MSpanSys).", func(m *runtime.MemStats) uint64 { return m.MSpanSys }),
		gauge("go_memstats_next_gc_bytes", "Target heap size of the next garbage collection cycle (runtime.MemStats.NextGC).", func(m *runtime.MemStats) uint64 { return m.NextGC }),
		gauge("go_memstats_other_sys_bytes", "Bytes of memory in miscellaneous off-heap runtime allocations (runtime.MemStats.OtherSys).", func(m *runtime.MemStats) uint64 { return m.OtherSys }),
		gauge("go_memstats_stack_inuse_bytes", "Bytes in stack spans (runtime.MemStats.StackInuse).", func(m *runtime.MemStats) uint64 { return m.StackInuse }),
		gauge("go_memstats_stack_sys_bytes", "Bytes of stack memory obtained from the OS (runtime.MemStats.StackSys).", func(m *runtime.MemStats) uint64 { return m.StackSys }),
		gauge("go_memstats_sys_bytes", "Total bytes of memory obtained from the OS (runtime.MemStats.Sys).", func(m *runtime.MemStats) uint64 { return m.Sys }),
		gaugeFunc("go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting: how many OS threads can run Go code at once.",
			func() float64 { return float64(runtime.GOMAXPROCS(0)) }),
		gaugeFunc("go_threads", "Number of OS threads created.", func() float64 {
			n, _ := runtime.ThreadCreateProfile(nil)
			return float64(n)
		}),
	}
}

// memStatsCache reads runtime.MemStats at most once in memStatsAge, so that
// the twenty go_memstats_* families of one scrape share one stop-the-world
// read.
type memStatsCache struct {
	mu   sync.Mutex // guards at and stat
	at   time.Time
	stat runtime.MemStats
}

const memStatsAge = 100 * time.Millisecond

// read returns a copy of the statistics, fresh within memStatsAge.
func (c *memStatsCache) read() *runtime.MemStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() || time.Since(c.at) > memStatsAge {
		runtime.ReadMemStats(&c.stat)
		c.at = time.Now()
	}
	st := c.stat
	return &st
}

func collectGCPauses(emit func(sample)) {
	var st debug.GCStats
	st.PauseQuantiles = make([]time.Duration, 5) // min, 25%, 50%, 75%, max
	debug.ReadGCStats(&st)
	for i, q := range []string{"0", "0.25", "0.5", "0.75", "1"} {
		emit(sample{labels: []labelPair{{"quantile", q}}, value: st.PauseQuantiles[i].Seconds()})
	}
	emit(sample{suffix: "_sum", value: st.PauseTotal.Seconds()})
	emit(sample{suffix: "_count", value: float64(st.NumGC)})
}

// gogcPercent is the GOGC setting as the runtime reads it at start: a
// percentage, "off", or 100 when unset or not a number. grove never changes
// it after start.
func gogcPercent() float64 {
	v := os.Getenv("GOGC")
	if strings.EqualFold(v, "off") {
		return -1
	}
	if n, err := strconv.Atoi(v); err == nil {
		return float64(n)
	}
	return 100
}
