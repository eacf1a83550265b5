package watch

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/fsnotify/fsnotify"
)

// fdTable is a process's descriptor table with a fake limit, shared by a fakeKqueue and the test's readers.
type fdTable struct {
	mu    sync.Mutex // guards all fields below
	limit int
	used  int
}

func (t *fdTable) take(n int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.used+n > t.limit {
		return false
	}
	t.used += n
	return true
}

func (t *fdTable) give(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.used -= n
}

// fakeKqueue delivers real events (inotify's, on Linux) but spends descriptors from an fdTable as kqueue
// does: one for each watched directory and each of its entries, one for each file added by itself, one for
// each entry created in a watched directory; Add fails with EMFILE when the table is full.
type fakeKqueue struct {
	inner  *fsnotify.Watcher
	table  *fdTable
	events chan fsnotify.Event
	done   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex      // guards all fields below
	held     map[string]bool // paths holding a descriptor
	explicit map[string]bool // paths given to Add
	peak     int             // most descriptors held at once
	refused  int             // Adds and kernel-side opens refused for lack of descriptors
}

func fakeKqueueSpec(table *fdTable) (*kernelSpec, *fakeKqueue) {
	fk := &fakeKqueue{table: table, held: map[string]bool{}, explicit: map[string]bool{},
		events: make(chan fsnotify.Event), done: make(chan struct{})}
	return &kernelSpec{
		open: func() (kernel, error) {
			inner, err := fsnotify.NewWatcher()
			if err != nil {
				return nil, err
			}
			fk.inner = inner
			fk.wg.Go(fk.forward)
			return fk, nil
		},
		perEntry: true,
		fdLimit:  func() int { return table.limit },
	}, fk
}

// hold takes a descriptor for p; the lock must be held.
func (fk *fakeKqueue) hold(p string) bool {
	if fk.held[p] {
		return true
	}
	if !fk.table.take(1) {
		fk.refused++
		return false
	}
	fk.held[p] = true
	fk.peak = max(fk.peak, len(fk.held))
	return true
}

func (fk *fakeKqueue) release(p string) {
	if fk.held[p] {
		delete(fk.held, p)
		fk.table.give(1)
	}
}

func (fk *fakeKqueue) Add(p string) error {
	p = filepath.Clean(p)
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	fk.mu.Lock()
	defer fk.mu.Unlock()
	paths := []string{p}
	if fi.IsDir() {
		es, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		for _, e := range es {
			paths = append(paths, filepath.Join(p, e.Name()))
		}
	}
	var took []string
	for _, q := range paths {
		was := fk.held[q]
		if !fk.hold(q) {
			for _, r := range took {
				fk.release(r)
			}
			return syscall.EMFILE
		}
		if !was {
			took = append(took, q)
		}
	}
	if err := fk.inner.Add(p); err != nil {
		for _, r := range took {
			fk.release(r)
		}
		return err
	}
	fk.explicit[p] = true
	return nil
}

func (fk *fakeKqueue) Remove(p string) error {
	p = filepath.Clean(p)
	fk.mu.Lock()
	defer fk.mu.Unlock()
	delete(fk.explicit, p)
	fk.release(p)
	for q := range fk.held {
		if filepath.Dir(q) == p && !fk.explicit[q] {
			fk.release(q)
		}
	}
	return fk.inner.Remove(p)
}

func (fk *fakeKqueue) Close() error {
	close(fk.done)
	err := fk.inner.Close()
	fk.wg.Wait()
	return err
}

func (fk *fakeKqueue) Events() <-chan fsnotify.Event { return fk.events }
func (fk *fakeKqueue) Errors() <-chan error          { return fk.inner.Errors }

// forward passes events on, opening a descriptor for each entry created in a watched directory first, as
// kqueue's directory listing does, and closing those of removed paths.
func (fk *fakeKqueue) forward() {
	defer close(fk.events)
	for {
		select {
		case ev, ok := <-fk.inner.Events:
			if !ok {
				return
			}
			p := filepath.Clean(ev.Name)
			fk.mu.Lock()
			switch {
			case ev.Has(fsnotify.Create) && fk.explicit[filepath.Dir(p)]:
				fk.hold(p)
			case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
				if !fk.explicit[p] || ev.Has(fsnotify.Remove) {
					fk.release(p)
				}
			}
			fk.mu.Unlock()
			select {
			case fk.events <- ev:
			case <-fk.done:
				return
			}
		case <-fk.done:
			return
		}
	}
}

// counts returns the descriptors held now, the most held at once and the refusals.
func (fk *fakeKqueue) counts() (held, peak, refused int) {
	fk.mu.Lock()
	defer fk.mu.Unlock()
	return len(fk.held), fk.peak, fk.refused
}
