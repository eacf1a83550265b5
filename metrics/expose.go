package metrics

import (
	"bufio"
	"compress/gzip"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// ContentType is the media type of the text exposition format, version 0.0.4,
// which is what [Metrics.Handler] writes.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// writeText writes families in the text exposition format: for each family
// with samples, a HELP line, a TYPE line and one line per sample,
// `name{label="value",...} value`. Families come in the order given.
func writeText(w io.Writer, families []family) error {
	bw := bufio.NewWriter(w)
	var samples []sample
	for _, f := range families {
		samples = samples[:0]
		f.collect(func(s sample) { samples = append(samples, s) })
		if len(samples) == 0 {
			continue
		}
		bw.WriteString("# HELP ")
		bw.WriteString(f.name)
		bw.WriteByte(' ')
		bw.WriteString(escape(f.help, false))
		bw.WriteString("\n# TYPE ")
		bw.WriteString(f.name)
		bw.WriteByte(' ')
		bw.WriteString(f.typ)
		bw.WriteByte('\n')
		for _, s := range samples {
			bw.WriteString(f.name)
			bw.WriteString(s.suffix)
			writeLabels(bw, s.labels)
			bw.WriteByte(' ')
			bw.WriteString(formatFloat(s.value))
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func writeLabels(bw *bufio.Writer, labels []labelPair) {
	if len(labels) == 0 {
		return
	}
	bw.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(l.name)
		bw.WriteString(`="`)
		bw.WriteString(escape(l.value, true))
		bw.WriteByte('"')
	}
	bw.WriteByte('}')
}

// escape applies the format's escapes: backslash and line feed in HELP text,
// and those and the double quote (quote set) in label values.
func escape(s string, quote bool) string {
	if !strings.ContainsAny(s, "\\\n\"") {
		return s
	}
	var b strings.Builder
	for i := range len(s) {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '"' && quote:
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// formatFloat writes a value as the format's Go-float syntax does, with
// +Inf, -Inf and NaN spelled so.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// textHandler serves families' exposition.
type textHandler struct{ m *Metrics }

// ServeHTTP writes the exposition, gzipped when the scraper accepts it (as
// Prometheus does). A write error is the scraper gone: nothing to do.
func (h textHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		_ = writeText(w, h.m.families)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	zw := gzip.NewWriter(w)
	_ = writeText(zw, h.m.families)
	_ = zw.Close()
}

// acceptsGzip reports whether an Accept-Encoding header lists gzip with a
// quality above zero.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q, ok := strings.CutPrefix(strings.TrimSpace(params), "q=")
		return !ok || strings.Trim(q, "0.") != ""
	}
	return false
}
