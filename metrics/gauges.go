package metrics

import "sync"

// Gauges are callbacks read at scrape time. A nil field adds nothing; each
// must be cheap and safe to call from any goroutine.
type Gauges struct {
	Sessions      func() int  // live MCP sessions
	Subscriptions func() int  // resource subscriptions held for sessions
	WatchedDirs   func() int  // directories the file watcher watches
	WatchDegraded func() bool // the watch limit was reached (or watching failed)
	OpenRepos     func() int  // repositories held open in the cache
	// GrepIndex returns the memory grep's trigram indexes hold and the bytes of text they index.
	GrepIndex func() (memory, text int64)
}

// AddGauges adds a source of gauge values; the gauges are the sums over every
// source added and not yet removed (a server of many sessions may add shared
// parts once and each session's parts on its own). remove drops it.
func (m *Metrics) AddGauges(g Gauges) (remove func()) {
	if m == nil {
		return func() {}
	}
	return m.gauges.add(g)
}

type gaugeSources struct {
	mu      sync.Mutex // guards sources and next
	sources map[int]Gauges
	next    int
}

func (gs *gaugeSources) add(g Gauges) func() {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.sources == nil {
		gs.sources = make(map[int]Gauges)
	}
	id := gs.next
	gs.next++
	gs.sources[id] = g
	return func() {
		gs.mu.Lock()
		defer gs.mu.Unlock()
		delete(gs.sources, id)
	}
}

// sum adds pick's value over the sources that have it.
func (gs *gaugeSources) sum(pick func(Gauges) float64) float64 {
	gs.mu.Lock()
	list := make([]Gauges, 0, len(gs.sources))
	for _, g := range gs.sources {
		list = append(list, g)
	}
	gs.mu.Unlock() // the callbacks take their own locks
	var total float64
	for _, g := range list {
		total += pick(g)
	}
	return total
}

func intOf(f func() int) float64 {
	if f == nil {
		return 0
	}
	return float64(f())
}

func grepIndexOf(g Gauges) (memory, text float64) {
	if g.GrepIndex == nil {
		return 0, 0
	}
	m, t := g.GrepIndex()
	return float64(m), float64(t)
}

// families are the gauges' families, each the sum over the sources.
func (gs *gaugeSources) families() []family {
	gauge := func(name, help string, pick func(Gauges) float64) family {
		return gaugeFunc(name, help, func() float64 { return gs.sum(pick) })
	}
	return []family{
		gauge("grove_sessions", "Live MCP sessions (stdio: 1 while the client is connected).",
			func(g Gauges) float64 { return intOf(g.Sessions) }),
		gauge("grove_subscriptions", "Resource subscriptions held for sessions, dormant ones included.",
			func(g Gauges) float64 { return intOf(g.Subscriptions) }),
		gauge("grove_watched_directories", "Directories the file watcher watches.",
			func(g Gauges) float64 { return intOf(g.WatchedDirs) }),
		gauge("grove_watch_degraded", "1 when file watching is degraded (the watch limit was reached), else 0.",
			func(g Gauges) float64 {
				if g.WatchDegraded != nil && g.WatchDegraded() {
					return 1
				}
				return 0
			}),
		gauge("grove_repositories_open", "Git repositories held open in the cache.",
			func(g Gauges) float64 { return intOf(g.OpenRepos) }),
		gauge("grove_grep_index_bytes", "Memory held by grep's trigram indexes (an estimate), in bytes.",
			func(g Gauges) float64 { m, _ := grepIndexOf(g); return m }),
		gauge("grove_grep_index_text_bytes", "Bytes of text grep's trigram indexes index.",
			func(g Gauges) float64 { _, t := grepIndexOf(g); return t }),
	}
}
