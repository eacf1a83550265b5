package metrics

import (
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A sample is one line of the exposition: the family's name with suffix
// ("", "_bucket", "_sum", "_count"), its labels and its value.
type sample struct {
	suffix string
	labels []labelPair
	value  float64
}

type labelPair struct{ name, value string }

// A family is one metric: its name, help text, type (counter, gauge,
// histogram, summary, as the exposition format names them) and a function
// that emits its samples at scrape time. A family that emits nothing is left
// out of the exposition.
type family struct {
	name, help, typ string
	collect         func(emit func(sample))
}

// A labelled series's key is its label values joined by a byte no label value
// of ours holds.
const keySep = "\xff"

// pairs returns the label pairs of values for names, sorted by label name, as
// the exposition shows them.
func pairs(names, values []string) []labelPair {
	out := make([]labelPair, len(names))
	for i := range names {
		out[i] = labelPair{names[i], values[i]}
	}
	slices.SortFunc(out, func(a, b labelPair) int { return strings.Compare(a.name, b.name) })
	return out
}

// counterVec is a counter with fixed label names; its series appear on first
// use.
type counterVec struct {
	labels []string
	mu     sync.RWMutex // guards series
	series map[string]*counter
}

type counter struct {
	labels []labelPair
	n      atomic.Uint64
}

func newCounterVec(labels ...string) *counterVec {
	return &counterVec{labels: labels, series: make(map[string]*counter)}
}

// inc adds one to the series of values (one per label name, in order).
func (v *counterVec) inc(values ...string) {
	key := strings.Join(values, keySep)
	v.mu.RLock()
	c := v.series[key]
	v.mu.RUnlock()
	if c == nil {
		v.mu.Lock()
		if c = v.series[key]; c == nil {
			c = &counter{labels: pairs(v.labels, values)}
			v.series[key] = c
		}
		v.mu.Unlock()
	}
	c.n.Add(1)
}

// collect emits the series in the order of their label values.
func (v *counterVec) collect(emit func(sample)) {
	list := inKeyOrder(&v.mu, v.series)
	for _, c := range list {
		emit(sample{labels: c.labels, value: float64(c.n.Load())})
	}
}

// histogramVec is a histogram with fixed label names and fixed bucket upper
// bounds (ascending; +Inf is implied).
type histogramVec struct {
	labels  []string
	buckets []float64
	mu      sync.RWMutex // guards series
	series  map[string]*histogram
}

type histogram struct {
	labels []labelPair
	mu     sync.Mutex // guards the rest, so that a scrape sees counts, sum and count agree
	counts []uint64   // per bucket, not cumulative; observations above the last bound only in count
	count  uint64
	sum    float64
}

func newHistogramVec(buckets []float64, labels ...string) *histogramVec {
	return &histogramVec{labels: labels, buckets: buckets, series: make(map[string]*histogram)}
}

// observe records x in the series of values.
func (v *histogramVec) observe(x float64, values ...string) {
	key := strings.Join(values, keySep)
	v.mu.RLock()
	h := v.series[key]
	v.mu.RUnlock()
	if h == nil {
		v.mu.Lock()
		if h = v.series[key]; h == nil {
			h = &histogram{labels: pairs(v.labels, values), counts: make([]uint64, len(v.buckets))}
			v.series[key] = h
		}
		v.mu.Unlock()
	}
	i, _ := slices.BinarySearch(v.buckets, x) // the first bound >= x: le is "less than or equal"
	h.mu.Lock()
	if i < len(h.counts) {
		h.counts[i]++
	}
	h.count++
	h.sum += x
	h.mu.Unlock()
}

// collect emits each series's cumulative buckets, ending with +Inf, then its
// _sum and _count.
func (v *histogramVec) collect(emit func(sample)) {
	list := inKeyOrder(&v.mu, v.series)
	for _, h := range list {
		h.mu.Lock()
		counts := slices.Clone(h.counts)
		count, sum := h.count, h.sum
		h.mu.Unlock()
		var cum uint64
		for i, bound := range v.buckets {
			cum += counts[i]
			emit(sample{suffix: "_bucket", labels: withLE(h.labels, bound), value: float64(cum)})
		}
		emit(sample{suffix: "_bucket", labels: withLE(h.labels, math.Inf(1)), value: float64(count)})
		emit(sample{suffix: "_sum", labels: h.labels, value: sum})
		emit(sample{suffix: "_count", labels: h.labels, value: float64(count)})
	}
}

// withLE appends the le label, which comes last.
func withLE(labels []labelPair, bound float64) []labelPair {
	out := make([]labelPair, len(labels), len(labels)+1)
	copy(out, labels)
	return append(out, labelPair{"le", formatFloat(bound)})
}

// inKeyOrder returns m's values in the order of their keys, read under mu.
func inKeyOrder[V any](mu *sync.RWMutex, m map[string]V) []V {
	mu.RLock()
	defer mu.RUnlock()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	list := make([]V, len(keys))
	for i, k := range keys {
		list[i] = m[k]
	}
	return list
}

// gaugeFunc is a family of one unlabelled gauge read from f at scrape time.
func gaugeFunc(name, help string, f func() float64) family {
	return family{name: name, help: help, typ: "gauge", collect: func(emit func(sample)) {
		emit(sample{value: f()})
	}}
}
