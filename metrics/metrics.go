// Package metrics owns grove's Prometheus metrics: the series, their bounded
// label values, and the handler that serves them in the text exposition
// format (version 0.0.4), written here from the format's documentation so
// that grove starts without a metrics library's package set-up.
//
//	m := metrics.New()
//	m.ObserveRequest("tools/call", "git_status", metrics.OutcomeOK, time.Since(start))
//	http.Handle("/metrics", m.Handler())
//
// The server feeds it (server/metrics.go): a receiving middleware times every
// request, a sending middleware counts notifications, and [Metrics.AddGauges]
// registers callbacks read at scrape time. A nil *Metrics is valid and
// records nothing, so a server without metrics pays one nil check.
//
// # Bounded labels
//
// Every label value comes from a fixed list or from grove's own names, never
// from a client's string as is: an unknown method is "other", a tool name is
// kept only for a tool the server has (see [Metrics.ObserveTool]) and only up
// to [MaxTools] of them, and outcomes and drop reasons are constants.
// docs/readme-metrics.md lists the series.
package metrics

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// latencyBuckets span a cached read (~100 µs) to a cold history walk of a
// large repository (tens of seconds), about 2.5x apart.
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics holds grove's series. Its methods are safe for concurrent use, and
// do nothing on a nil receiver.
type Metrics struct {
	families []family // every family served, by name

	requests      *counterVec   // method, outcome
	latency       *histogramVec // method
	toolCalls     *counterVec   // tool, outcome
	toolLatency   *histogramVec // tool
	notifications *counterVec   // method
	dropped       *counterVec   // method, reason

	tools  toolNames
	gauges gaugeSources
}

// New returns metrics with their own registry, which also holds the Go
// runtime (go_*) and process (process_*) series.
func New() *Metrics {
	m := &Metrics{
		requests:      newCounterVec("method", "outcome"),
		latency:       newHistogramVec(latencyBuckets, "method"),
		toolCalls:     newCounterVec("tool", "outcome"),
		toolLatency:   newHistogramVec(latencyBuckets, "tool"),
		notifications: newCounterVec("method"),
		dropped:       newCounterVec("method", "reason"),
	}
	m.families = append(m.families,
		family{name: "grove_requests_total", typ: "counter", collect: m.requests.collect,
			help: "JSON-RPC requests and notifications received from clients, by method and outcome."},
		family{name: "grove_request_duration_seconds", typ: "histogram", collect: m.latency.collect,
			help: "Time to answer a client's request, by method (resources/read, resources/list, tools/call, ...)."},
		family{name: "grove_tool_calls_total", typ: "counter", collect: m.toolCalls.collect,
			help: "tools/call requests by tool and outcome."},
		family{name: "grove_tool_duration_seconds", typ: "histogram", collect: m.toolLatency.collect,
			help: "Time to answer tools/call, by tool."},
		family{name: "grove_notifications_sent_total", typ: "counter", collect: m.notifications.collect,
			help: "Notifications written to a session, by method."},
		family{name: "grove_notifications_dropped_total", typ: "counter", collect: m.dropped.collect,
			help: "Notifications meant for a session that it will not get, by method and reason."},
	)
	m.families = append(m.families, m.gauges.families()...)
	m.families = append(m.families, goFamilies()...)
	m.families = append(m.families, processFamilies()...)
	slices.SortFunc(m.families, func(a, b family) int { return strings.Compare(a.name, b.name) })
	return m
}

// Handler serves the metrics in the Prometheus text exposition format
// (version 0.0.4). It checks nothing: whoever mounts it puts it behind the
// server's token.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return textHandler{m}
}

// ObserveRequest records one request (or client notification) answered
// after d with outcome. A method grove does not know counts as "other".
func (m *Metrics) ObserveRequest(method string, outcome Outcome, d time.Duration) {
	if m == nil {
		return
	}
	method = Method(method)
	m.requests.inc(method, string(outcome))
	m.latency.observe(d.Seconds(), method)
}

// ObserveTool records one tools/call of tool answered after d with outcome.
// known says the server has that tool (the SDK did not answer "unknown
// tool"); a call of any other name, or of a name past the first [MaxTools],
// counts as "other".
func (m *Metrics) ObserveTool(tool string, known bool, outcome Outcome, d time.Duration) {
	if m == nil {
		return
	}
	label := "other"
	if known {
		label = m.tools.label(tool)
	}
	m.toolCalls.inc(label, string(outcome))
	m.toolLatency.observe(d.Seconds(), label)
}

// NotificationSent counts a notification written to one session.
func (m *Metrics) NotificationSent(method string) {
	if m == nil {
		return
	}
	m.notifications.inc(Notification(method))
}

// NotificationDropped counts a notification one session will not get.
func (m *Metrics) NotificationDropped(method string, reason DropReason) {
	if m == nil {
		return
	}
	m.dropped.inc(Notification(method), string(reason.bounded()))
}

// toolNames bounds the tool label: the first MaxTools names seen keep their
// own series.
type toolNames struct {
	mu    sync.Mutex // guards names
	names map[string]bool
}

// MaxTools is the most tool names with series of their own; grove has about
// thirty tools.
const MaxTools = 64

func (t *toolNames) label(name string) string {
	if !validToolName(name) {
		return "other"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names[name] {
		return name
	}
	if len(t.names) >= MaxTools {
		return "other"
	}
	if t.names == nil {
		t.names = make(map[string]bool)
	}
	t.names[name] = true
	return name
}

// validToolName reports whether name is a tool name as the spec defines
// one: 1 to 128 of A-Z, a-z, 0-9, _, - and . (and not "other").
func validToolName(name string) bool {
	if name == "" || len(name) > 128 || name == "other" {
		return false
	}
	for _, c := range []byte(name) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
