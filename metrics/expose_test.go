package metrics

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// parsedFamily is one family of an exposition as parseText reads it.
type parsedFamily struct {
	help, typ string
	samples   []parsedSample
}

type parsedSample struct {
	name   string // with its suffix
	labels map[string]string
	value  float64
}

var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// parseText reads the text exposition format line by line, independently of
// the writer: HELP and TYPE lines first for each family, each family once,
// every sample named after the family of the TYPE line above it with a
// suffix its type allows, labels as name="value" with the format's escapes,
// values as Go floats or +Inf/-Inf/NaN.
func parseText(t *testing.T, text string) map[string]*parsedFamily {
	t.Helper()
	out := make(map[string]*parsedFamily)
	var cur string
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("line %d %q: %s", n, line, fmt.Sprintf(format, args...))
		}
		switch {
		case line == "":
			fail("empty line")
		case strings.HasPrefix(line, "# HELP "):
			name, help, _ := strings.Cut(strings.TrimPrefix(line, "# HELP "), " ")
			if !metricName.MatchString(name) {
				fail("bad name")
			}
			if out[name] != nil {
				fail("family %s twice", name)
			}
			out[name] = &parsedFamily{help: help}
			cur = name
		case strings.HasPrefix(line, "# TYPE "):
			name, typ, _ := strings.Cut(strings.TrimPrefix(line, "# TYPE "), " ")
			if name != cur || out[name].typ != "" || len(out[name].samples) > 0 {
				fail("TYPE not right after its HELP")
			}
			switch typ {
			case "counter", "gauge", "histogram", "summary", "untyped":
			default:
				fail("bad type %q", typ)
			}
			out[name].typ = typ
		case strings.HasPrefix(line, "#"):
			fail("unexpected comment")
		default:
			s, err := parseSample(line)
			if err != nil {
				fail("%v", err)
			}
			f := out[cur]
			if f == nil || f.typ == "" {
				fail("sample before its family's HELP and TYPE")
			}
			suffixes := map[string][]string{
				"counter": {""}, "gauge": {""}, "untyped": {""},
				"histogram": {"_bucket", "_sum", "_count"}, "summary": {"", "_sum", "_count"},
			}[f.typ]
			ok := false
			for _, suf := range suffixes {
				ok = ok || s.name == cur+suf
			}
			if !ok {
				fail("sample %s in family %s of type %s", s.name, cur, f.typ)
			}
			f.samples = append(f.samples, s)
		}
	}
	return out
}

func parseSample(line string) (parsedSample, error) {
	s := parsedSample{labels: make(map[string]string)}
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, fmt.Errorf("no value")
	}
	s.name, line = line[:i], line[i:]
	if !metricName.MatchString(s.name) {
		return s, fmt.Errorf("bad name %q", s.name)
	}
	if strings.HasPrefix(line, "{") {
		line = line[1:]
		for !strings.HasPrefix(line, "}") {
			name, rest, ok := strings.Cut(line, `="`)
			if !ok || !metricName.MatchString(name) {
				return s, fmt.Errorf("bad label at %q", line)
			}
			var v strings.Builder
			j := 0
			for ; j < len(rest) && rest[j] != '"'; j++ {
				if rest[j] == '\n' {
					return s, fmt.Errorf("raw line feed in a label value")
				}
				if rest[j] != '\\' {
					v.WriteByte(rest[j])
					continue
				}
				j++
				switch {
				case j == len(rest):
					return s, fmt.Errorf("escape at the end")
				case rest[j] == 'n':
					v.WriteByte('\n')
				case rest[j] == '\\' || rest[j] == '"':
					v.WriteByte(rest[j])
				default:
					return s, fmt.Errorf("bad escape \\%c", rest[j])
				}
			}
			if j == len(rest) {
				return s, fmt.Errorf("unterminated label value")
			}
			if _, dup := s.labels[name]; dup {
				return s, fmt.Errorf("label %s twice", name)
			}
			s.labels[name] = v.String()
			line = strings.TrimPrefix(rest[j+1:], ",")
		}
		line = line[1:]
	}
	v, ok := strings.CutPrefix(line, " ")
	if !ok || strings.Contains(v, " ") {
		return s, fmt.Errorf("want one space and a value, got %q", line)
	}
	f, err := strconv.ParseFloat(v, 64) // also reads +Inf, -Inf, NaN
	if err != nil {
		return s, err
	}
	s.value = f
	return s, nil
}

// checkHistogram checks each series of a histogram family: buckets in
// ascending le order ending at +Inf, cumulative counts, +Inf's count equal
// to _count, and a _sum.
func checkHistogram(t *testing.T, name string, f *parsedFamily) {
	t.Helper()
	type series struct {
		les, counts []float64
		sum, count  *float64
	}
	all := make(map[string]*series)
	for _, s := range f.samples {
		key := fmt.Sprint(withoutLE(s.labels))
		if all[key] == nil {
			all[key] = &series{}
		}
		se := all[key]
		switch s.name {
		case name + "_bucket":
			le, err := strconv.ParseFloat(s.labels["le"], 64)
			if err != nil {
				t.Fatalf("%s: bucket le %q: %v", name, s.labels["le"], err)
			}
			se.les = append(se.les, le)
			se.counts = append(se.counts, s.value)
		case name + "_sum":
			se.sum = &s.value
		case name + "_count":
			se.count = &s.value
		}
	}
	for key, se := range all {
		if len(se.les) == 0 || !math.IsInf(se.les[len(se.les)-1], 1) {
			t.Errorf("%s%s: buckets %v do not end at +Inf", name, key, se.les)
			continue
		}
		for i := 1; i < len(se.les); i++ {
			if se.les[i] <= se.les[i-1] || se.counts[i] < se.counts[i-1] {
				t.Errorf("%s%s: bucket %d (le %v, %v) after (le %v, %v): not ascending or not cumulative",
					name, key, i, se.les[i], se.counts[i], se.les[i-1], se.counts[i-1])
			}
		}
		if se.sum == nil || se.count == nil {
			t.Errorf("%s%s: _sum or _count missing", name, key)
		} else if *se.count != se.counts[len(se.counts)-1] {
			t.Errorf("%s%s: _count %v, +Inf bucket %v", name, key, *se.count, se.counts[len(se.counts)-1])
		}
	}
}

func withoutLE(labels map[string]string) map[string]string {
	out := make(map[string]string)
	for k, v := range labels {
		if k != "le" {
			out[k] = v
		}
	}
	return out
}

func scrapeText(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	if got := rec.Header().Get("Content-Type"); got != ContentType {
		t.Errorf("Content-Type %q, want %q", got, ContentType)
	}
	return rec.Body.String()
}

func TestExpositionParses(t *testing.T) {
	m := New()
	for _, d := range []time.Duration{50 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, time.Minute} {
		m.ObserveRequest("resources/read", OutcomeOK, d)
		m.ObserveTool("git_status", true, OutcomeOK, d)
	}
	m.ObserveRequest("tools/call", OutcomeToolError, 3*time.Millisecond)
	m.NotificationSent("notifications/resources/updated")
	m.NotificationDropped("notifications/resources/updated", DropSendFailed)
	m.AddGauges(Gauges{Sessions: func() int { return 2 }, WatchDegraded: func() bool { return true }})
	fams := parseText(t, scrapeText(t, m))

	wantTypes := map[string]string{
		"grove_requests_total": "counter", "grove_request_duration_seconds": "histogram",
		"grove_tool_calls_total": "counter", "grove_tool_duration_seconds": "histogram",
		"grove_notifications_sent_total": "counter", "grove_notifications_dropped_total": "counter",
		"grove_sessions": "gauge", "grove_subscriptions": "gauge", "grove_watched_directories": "gauge",
		"grove_watch_degraded": "gauge", "grove_repositories_open": "gauge",
		"grove_grep_index_bytes": "gauge", "grove_grep_index_text_bytes": "gauge",
		"go_gc_duration_seconds": "summary", "go_goroutines": "gauge", "go_info": "gauge", "go_threads": "gauge",
		"go_memstats_alloc_bytes": "gauge", "go_memstats_alloc_bytes_total": "counter",
		"go_memstats_heap_inuse_bytes": "gauge", "go_memstats_sys_bytes": "gauge",
		"go_gc_gogc_percent": "gauge", "go_gc_gomemlimit_bytes": "gauge", "go_sched_gomaxprocs_threads": "gauge",
	}
	if processFamilies() != nil { // Linux
		for _, name := range []string{"process_resident_memory_bytes", "process_virtual_memory_bytes",
			"process_virtual_memory_max_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds"} {
			wantTypes[name] = "gauge"
		}
		wantTypes["process_cpu_seconds_total"] = "counter"
	}
	for name, typ := range wantTypes {
		f := fams[name]
		switch {
		case f == nil:
			t.Errorf("family %s missing", name)
		case f.typ != typ:
			t.Errorf("%s is a %s, want %s", name, f.typ, typ)
		case f.help == "":
			t.Errorf("%s has no help", name)
		}
	}
	for name, f := range fams {
		if f.typ == "histogram" {
			checkHistogram(t, name, f)
		}
	}

	// The buckets of the four observations: 50 µs in the first, 1 ms in
	// le="0.001" (le is inclusive), 5 ms in le="0.005", a minute only in +Inf.
	got := make(map[string]float64)
	for _, s := range fams["grove_tool_duration_seconds"].samples {
		if s.name == "grove_tool_duration_seconds_bucket" {
			got[s.labels["le"]] = s.value
		}
	}
	for le, want := range map[string]float64{"0.0001": 1, "0.00025": 1, "0.001": 2, "0.0025": 2, "0.005": 3, "30": 3, "+Inf": 4} {
		if got[le] != want {
			t.Errorf(`grove_tool_duration_seconds_bucket{le=%q} = %v, want %v`, le, got[le], want)
		}
	}
	if pf := fams["process_start_time_seconds"]; pf != nil {
		if v := pf.samples[0].value; math.Abs(v-float64(time.Now().Unix())) > 3600 {
			t.Errorf("process_start_time_seconds = %v, not within the hour", v)
		}
	}
	if g := fams["go_goroutines"]; g != nil && g.samples[0].value < 1 {
		t.Errorf("go_goroutines = %v", g.samples[0].value)
	}
}

// Families without series are left out, as a registry of vectors does.
func TestExpositionOmitsEmptyFamilies(t *testing.T) {
	fams := parseText(t, scrapeText(t, New()))
	for _, name := range []string{"grove_requests_total", "grove_request_duration_seconds", "grove_tool_calls_total"} {
		if fams[name] != nil {
			t.Errorf("%s shown with no series", name)
		}
	}
	if fams["grove_sessions"] == nil {
		t.Error("grove_sessions missing: gauges are shown at 0")
	}
}

func TestWriteTextEscapes(t *testing.T) {
	fams := []family{{name: "x_total", typ: "counter", help: "back\\slash and\nline feed", collect: func(emit func(sample)) {
		emit(sample{labels: []labelPair{{"a", "q\"uote\\ and\nnl"}, {"b", ""}}, value: math.Inf(1)})
		emit(sample{labels: []labelPair{{"a", "plain"}}, value: 0.5})
	}}}
	var b strings.Builder
	if err := writeText(&b, fams); err != nil {
		t.Fatal(err)
	}
	want := "# HELP x_total back\\\\slash and\\nline feed\n# TYPE x_total counter\n" +
		"x_total{a=\"q\\\"uote\\\\ and\\nnl\",b=\"\"} +Inf\n" +
		"x_total{a=\"plain\"} 0.5\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	got := parseText(t, b.String())["x_total"].samples[0]
	if got.labels["a"] != "q\"uote\\ and\nnl" || !math.IsInf(got.value, 1) {
		t.Errorf("round trip: %+v", got)
	}
}

func TestHandlerGzip(t *testing.T) {
	m := New()
	m.ObserveTool("git_status", true, OutcomeOK, time.Millisecond)
	for _, tt := range []struct {
		accept string
		gzip   bool
	}{
		{"", false},
		{"gzip", true},
		{"deflate, GZIP;q=0.5", true},
		{"gzip;q=0", false},
		{"gzip;q=0.000", false},
		{"identity", false},
	} {
		t.Run(tt.accept, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/metrics", nil)
			req.Header.Set("Accept-Encoding", tt.accept)
			rec := httptest.NewRecorder()
			m.Handler().ServeHTTP(rec, req)
			body := rec.Body.String()
			if got := rec.Header().Get("Content-Encoding") == "gzip"; got != tt.gzip {
				t.Fatalf("gzipped = %v, want %v", got, tt.gzip)
			}
			if tt.gzip {
				zr, err := gzip.NewReader(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				body = string(b)
			}
			if !strings.Contains(parseTextBody(t, body), `grove_tool_calls_total`) {
				t.Errorf("body lacks the tool call:\n%s", body)
			}
		})
	}
}

// parseTextBody checks body parses and returns it.
func parseTextBody(t *testing.T, body string) string {
	t.Helper()
	parseText(t, body)
	return body
}

// Observations from many goroutines while scrapes run are all counted, and
// every scrape parses (run with -race).
func TestConcurrentObserveAndScrape(t *testing.T) {
	m := New()
	const workers, each = 8, 200
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				m.ObserveRequest("tools/call", OutcomeOK, time.Duration(i)*time.Microsecond)
				m.ObserveTool(fmt.Sprintf("tool_%d", w%3), true, OutcomeOK, time.Millisecond)
				m.NotificationSent("notifications/message")
			}
		}()
	}
	for range 5 {
		parseText(t, scrapeText(t, m))
	}
	for range workers {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("observers did not finish")
		}
	}
	got := values(t, m)
	want := map[string]float64{
		`grove_requests_total{method="tools/call",outcome="ok"}`:         workers * each,
		`grove_request_duration_seconds{method="tools/call"}`:            workers * each,
		`grove_notifications_sent_total{method="notifications/message"}`: workers * each,
		`grove_tool_calls_total{outcome="ok",tool="tool_0"}`:             3 * each,
		`grove_tool_calls_total{outcome="ok",tool="tool_1"}`:             3 * each,
		`grove_tool_calls_total{outcome="ok",tool="tool_2"}`:             2 * each,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	fams := parseText(t, scrapeText(t, m))
	checkHistogram(t, "grove_request_duration_seconds", fams["grove_request_duration_seconds"])
}
