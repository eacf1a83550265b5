//go:build linux

package grep

import (
	"log/slog"
	"os"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/grove-mcp/grove/internal/panics"
)

// The texts of files searched before are kept, up to contentBudget bytes,
// so that a later search of the same tree costs a file one fstatat(2) and
// a copy instead of open, fstat, read and close: on git/git a many-match
// search reads 37 MB, and the kernel's copy and page-cache lookups were
// most of its time. A kept text is used only while the file's identity is
// unchanged: device, inode, size, modification and change times, the
// test git applies to its index. A file changed in the same clock tick as
// it was read could keep all of them, so a file whose times are within
// contentRacy of its read is not kept (as git treats "racily clean"
// entries). The stat is made relative to the file's directory, opened
// beneath the searched one without following any symlink, and does not
// follow a symlink itself: a kept text is only served by the path, inside
// the root, where it was read. Like the trigram index, the texts are
// dropped after contentIdle without a search.
//
// A search whose caller vouches that the root's kept texts are current
// ([Synced]: fsres, right after the trigram index brought itself up to
// date from the watcher's feed, which told [Forget] every path changed
// before the search began) uses a text without the fstatat when such a
// search kept it, or found it unchanged with the fstatat (vouch): its file
// is one the index covers, whose changes the feed reports. A text read
// before a change the feed reported is never kept (see contentCache.epoch).
//
// A root keeps texts only up to the budget its caller gives it
// ([KeepTexts]: fsres gives what the root's trigram index leaves of half
// the text it indexes, the bound issue 21 sets for the index's memory),
// and only of small files: a kept text saves a file four system calls
// whatever its size, so a budget goes furthest on many small files. All
// roots together keep at most contentBudget. At 64 MiB, a 1 GB tree (git/git
// 21 times over, its index 137 MB) kept a fifth of the small files grep
// `return` reads, and that grep took 0.38x ripgrep's time; with the 343 MB
// its budget allows, it keeps them all: 425 ms a call against 618 (medians
// of 12, both processes serving side by side; bench/RESULTS.md). That
// memory is within the bound issue 21 gives the index, half the text.
const (
	contentBudget = 512 << 20 // bytes of kept texts and their entries, all roots together
	maxKeptFile   = 64 << 10  // larger files are read each time
	entryCost     = 160       // bytes an entry costs besides its text: key, map slot, strings

	// contentIdle is the trigram index's idle time (fsres): an agent that
	// stopped searching gets its memory back as it does the index's.
	contentIdle = 10 * time.Minute
)

// contentRacy is how much older than its read a file's times must be for
// its text to be kept (a variable for tests).
var contentRacy = 2 * time.Second

var contents = contentCache{files: make(map[contentKey]*content), budget: contentBudget}

type contentKey struct {
	root *os.Root
	rel  string // slash-separated, from the root
}

// fileID is what must be unchanged for a kept text to be used.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime unix.Timespec
}

func idOf(st *unix.Stat_t) fileID {
	return fileID{dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim}
}

type content struct {
	id       fileID
	data     []byte
	vouching atomic.Bool   // kept, or found unchanged, by a search of Synced's: the feed reports the file's changes
	used     atomic.Uint64 // the root's generation (KeepTexts) of the last search that kept or used it
}

type contentCache struct {
	hits   atomic.Int64 // texts served, for tests
	budget int

	mu       sync.RWMutex // guards all fields below
	files    map[contentKey]*content
	budgets  map[*os.Root]int    // KeepTexts's, by root; a root without one keeps nothing
	perRoot  map[*os.Root]int    // bytes kept, by root
	gens     map[*os.Root]uint64 // KeepTexts calls with a budget, by root: the searches of its index
	searched map[*os.Root]bool   // roots searched since the texts were last dropped
	bytes    int
	epoch    uint64      // Forget calls so far: a text read before one is not kept
	used     time.Time   // the last search's start, or put
	idle     *time.Timer // drops every text contentIdle after used; nil when none is kept
}

func (c *contentCache) get(k contentKey) *content {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.files[k]
}

// touch notes a search starting, which keeps the texts another
// contentIdle.
func (c *contentCache) touch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used = time.Now()
}

// searchedBefore reports whether root was searched before, and notes that
// it was. The first search of a root keeps no text: a single grep (the
// cold one, or an agent's only one) does not pay for copies it will not
// use.
func searchedBefore(root *os.Root) bool {
	return contents.searchedBefore(root)
}

func (c *contentCache) searchedBefore(root *os.Root) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.searched[root] {
		return true
	}
	if c.searched == nil {
		c.searched = make(map[*os.Root]bool)
	}
	c.searched[root] = true
	return false
}

// expire drops every text if none was used for contentIdle, else waits
// for the rest of that time. It runs on the timer's goroutine.
func (c *contentCache) expire() {
	defer panics.Log(slog.Default(), "dropping idle kept texts")
	c.mu.Lock()
	defer c.mu.Unlock()
	if left := contentIdle - time.Since(c.used); left > 0 {
		c.idle.Reset(left)
		return
	}
	clear(c.files)
	clear(c.perRoot)
	clear(c.searched)
	c.bytes, c.idle = 0, nil
}

// put keeps a copy of data as the text of k while the budget allows. A
// full cache takes nothing more until its texts are dropped as idle: a
// tree larger than the budget keeps the texts it kept first rather than
// copying every file it reads in place of another (no hit would pay for
// those copies).
//
// epoch is the cache's epoch when the search that read data began: a
// text read before a Forget may be the old one of a path it forgot, and is
// not kept.
func (c *contentCache) put(k contentKey, id fileID, data []byte, epoch, gen uint64, vouching bool) {
	cost := len(data) + len(k.rel) + entryCost
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(k)
	if epoch != c.epoch || c.bytes+cost > c.budget || c.perRoot[k.root]+cost > c.budgets[k.root] {
		return
	}
	e := &content{id: id, data: slices.Clone(data)} // never written again: lent to searches as it is
	e.vouching.Store(vouching)
	e.used.Store(gen)
	c.files[k] = e
	c.bytes += cost
	if c.perRoot == nil {
		c.perRoot = make(map[*os.Root]int)
	}
	c.perRoot[k.root] += cost
	c.used = time.Now()
	if c.idle == nil {
		c.idle = time.AfterFunc(contentIdle, c.expire)
	}
}

// drop forgets k.
func (c *contentCache) drop(k contentKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(k)
}

func (c *contentCache) dropLocked(k contentKey) {
	if old := c.files[k]; old != nil {
		cost := len(old.data) + len(k.rel) + entryCost
		c.bytes -= cost
		if c.perRoot[k.root] -= cost; c.perRoot[k.root] <= 0 {
			delete(c.perRoot, k.root)
		}
		delete(c.files, k)
	}
}

// Forget drops the kept texts of the root fsys at the paths rels
// (slash-separated, from the root) and below them, or all of them; a
// search that began before the call keeps none of the texts it reads.
// fsres calls it with every path the watcher's feed reports for the root.
func Forget(fsys *os.Root, rels []string, all bool) {
	contents.forget(fsys, rels, all)
}

// maxForget is how many paths Forget looks up one by one; past it a
// root's texts are all dropped.
const maxForget = 256

func (c *contentCache) forget(root *os.Root, rels []string, all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	if c.perRoot[root] == 0 {
		return
	}
	gone := make(map[string]bool, len(rels))
	for _, rel := range rels {
		if rel == "." || rel == "" {
			all = true
		}
		gone[rel] = true
	}
	all = all || len(rels) > maxForget
	for k := range c.files {
		if k.root != root {
			continue
		}
		if all {
			c.dropLocked(k)
			continue
		}
		for p := k.rel; p != "."; p = path.Dir(p) {
			if gone[p] {
				c.dropLocked(k)
				break
			}
		}
	}
}

// Synced returns openers like [DirOpener]'s for a search of fsys whose
// caller has just told [Forget] every change below fsys made before the
// call, and vouches that the feed it took them from reports every change
// to the files the search reads (the trigram index's walk).
func Synced(fsys *os.Root, base string) func() Opener {
	open := DirOpener(fsys, base)
	return func() Opener {
		o := open().(*dirOpener)
		o.vouched = true
		return o
	}
}

// vouch marks e, a text a search that is not vouched for kept and a
// search of Synced's has just found unchanged, as vouched for from now on:
// its file is one the feed covers (the index's walk gave it), and a change
// after the check is a path a later Forget names. Not when a Forget came
// after the search began: it may have named e's path before the check.
func (c *contentCache) vouch(e *content, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch == c.epoch {
		e.vouching.Store(true)
	}
}

// keptEpoch returns the kept texts' epoch, for a search beginning.
func keptEpoch() uint64 { return contents.epochNow() }

func (c *contentCache) epochNow() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.epoch
}

// KeepTexts sets how many bytes of texts, entries included, searches of
// the root fsys may keep; the root's texts beyond it are dropped (0 drops
// them all and keeps none).
func KeepTexts(fsys *os.Root, budget int64) {
	contents.keepTexts(fsys, int(min(budget, contentBudget)))
}

func (c *contentCache) keepTexts(root *os.Root, budget int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if budget <= 0 {
		delete(c.budgets, root)
	} else {
		if c.budgets == nil {
			c.budgets = make(map[*os.Root]int)
			c.gens = make(map[*os.Root]uint64)
		}
		c.budgets[root] = budget
		c.gens[root]++
		c.evictLocked(root, budget)
	}
	for k := range c.files {
		if c.perRoot[root] <= max(budget, 0) {
			return
		}
		if k.root == root {
			c.dropLocked(k)
		}
	}
}

// evictLocked makes room in root's nearly full budget, as a search of its
// index begins: it drops the texts neither this search nor the one before
// kept or used. A budget filled by greps without the index (which read
// every file, in walk order) would otherwise keep those texts until they
// went idle, and a later many-match grep read its own files each time:
// grepbench's warm return took 29-35 ms after them against 23 ms alone.
// Texts two searches in a row use stay; one search's texts survive the
// next, whatever it reads.
func (c *contentCache) evictLocked(root *os.Root, budget int) {
	if c.perRoot[root] <= budget-budget/10 {
		return
	}
	gen := c.gens[root]
	for k, e := range c.files {
		if k.root == root && e.used.Load()+1 < gen {
			c.dropLocked(k)
		}
	}
}

// keptGen returns root's generation, for a search beginning.
func keptGen(root *os.Root) uint64 {
	contents.mu.RLock()
	defer contents.mu.RUnlock()
	return contents.gens[root]
}

// KeptBytes returns the memory the texts kept for the root fsys hold,
// entries included.
func KeptBytes(fsys *os.Root) int64 {
	contents.mu.RLock()
	defer contents.mu.RUnlock()
	return int64(contents.perRoot[fsys])
}

// kept returns the kept text of rel, lent (never to be written: see
// Lender), when the file is still the one it was read from; ok false says
// to read the file.
func (o *dirOpener) kept(rel string, limit int64, buf []byte) (data []byte, ok bool, err error) {
	if !o.touched {
		contents.touch()
		o.touched = true
	}
	k := o.keyOf(rel)
	e := contents.get(k)
	if e == nil {
		return buf, false, nil
	}
	if o.vouched && e.vouching.Load() {
		return o.lend(e, limit, buf)
	}
	dir, name := path.Split(rel)
	if name == "" || name == "." || name == ".." {
		return buf, false, nil
	}
	dfd, err := o.parent(dir)
	if err != nil {
		return buf, false, nil
	}
	var st unix.Stat_t
	if err := fstatat(dfd, name, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || idOf(&st) != e.id {
		contents.drop(k)
		return buf, false, nil
	}
	if o.vouched {
		contents.vouch(e, o.epoch)
	}
	return o.lend(e, limit, buf)
}

// lend returns the kept text e (see kept).
func (o *dirOpener) lend(e *content, limit int64, buf []byte) (data []byte, ok bool, err error) {
	if int64(len(e.data)) > limit {
		return buf, true, errTooLarge
	}
	contents.hits.Add(1)
	e.used.Store(o.gen)
	o.lent = e.data
	return e.data, true, nil // lent, not copied: see Lender
}

// keep remembers data, just read from the file rel whose fstat is st, if
// its root was searched before, and the file is small, text, and older
// than its read by contentRacy.
func (o *dirOpener) keep(rel string, st *unix.Stat_t, data []byte, readAt time.Time) {
	if !o.again || int64(len(data)) != st.Size || len(data) > maxKeptFile || isBinary(data) {
		return
	}
	settled := readAt.Add(-contentRacy)
	if !time.Unix(st.Mtim.Unix()).Before(settled) || !time.Unix(st.Ctim.Unix()).Before(settled) {
		return
	}
	contents.put(o.keyOf(rel), idOf(st), data, o.epoch, o.gen, o.vouched)
}

// keyOf returns the key of the file rel: its path from the root.
func (o *dirOpener) keyOf(rel string) contentKey {
	if o.base == "." {
		return contentKey{o.fsys, rel} // clean, as the walk reports it
	}
	return contentKey{o.fsys, path.Join(o.base, rel)}
}

// parent returns a descriptor of the directory dir (relative to the
// searched one, "" for it), opened beneath it without following symlinks;
// the worker keeps the last one.
func (o *dirOpener) parent(dir string) (int, error) {
	if o.pOpen && dir == o.pDir {
		return o.pFD, nil
	}
	o.closeParent()
	if err := o.openBase(); err != nil {
		return -1, err
	}
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	p := path.Clean("./" + dir)
	for {
		fd, err := unix.Openat2(o.baseFD, p, &how)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil {
			return -1, err
		}
		o.pOpen, o.pDir, o.pFD = true, dir, fd
		return fd, nil
	}
}

func (o *dirOpener) closeParent() {
	if o.pOpen {
		unix.Close(o.pFD)
		o.pOpen = false
	}
}

func fstatat(dir int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dir, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}
