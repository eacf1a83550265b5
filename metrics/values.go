package metrics

import (
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// Values gathers every grove_* series as `name{label="value",...}` (labels in
// name order) mapped to its value: a counter's or gauge's value, a
// histogram's count of observations. It is for tests and tools that check
// what a scrape would show, without parsing the exposition text.
func (m *Metrics) Values() (map[string]float64, error) {
	if m == nil {
		return nil, nil
	}
	families, err := m.reg.Gather()
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64)
	for _, f := range families {
		if !strings.HasPrefix(f.GetName(), "grove_") {
			continue
		}
		for _, s := range f.GetMetric() {
			out[seriesName(f.GetName(), s.GetLabel())] = value(s)
		}
	}
	return out, nil
}

func seriesName(name string, labels []*dto.LabelPair) string {
	if len(labels) == 0 {
		return name
	}
	parts := make([]string, 0, len(labels))
	for _, l := range labels {
		parts = append(parts, l.GetName()+`="`+l.GetValue()+`"`)
	}
	slices.Sort(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}

func value(s *dto.Metric) float64 {
	switch {
	case s.Counter != nil:
		return s.Counter.GetValue()
	case s.Gauge != nil:
		return s.Gauge.GetValue()
	case s.Histogram != nil:
		return float64(s.Histogram.GetSampleCount())
	}
	return 0
}
