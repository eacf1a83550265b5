package metrics

import (
	"slices"
	"strings"
)

// Values gathers every grove_* series as `name{label="value",...}` (labels in
// name order) mapped to its value: a counter's or gauge's value, a
// histogram's count of observations. It is for tests and tools that check
// what a scrape would show, without parsing the exposition text. The error
// is always nil; it is there for a source that can fail.
func (m *Metrics) Values() (map[string]float64, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]float64)
	for _, f := range m.families {
		if !strings.HasPrefix(f.name, "grove_") {
			continue
		}
		want := "" // the sample that is the series's value
		if f.typ == "histogram" {
			want = "_count"
		}
		f.collect(func(s sample) {
			if s.suffix == want {
				out[seriesName(f.name, s.labels)] = s.value
			}
		})
	}
	return out, nil
}

func seriesName(name string, labels []labelPair) string {
	if len(labels) == 0 {
		return name
	}
	parts := make([]string, 0, len(labels))
	for _, l := range labels {
		parts = append(parts, l.name+`="`+l.value+`"`)
	}
	slices.Sort(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}
