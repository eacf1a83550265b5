package watch

import (
	"github.com/fsnotify/fsnotify"
)

// kernel is the notification mechanism the Watcher drives: fsnotify (inotify, kqueue, ReadDirectoryChangesW),
// or a fake in tests. Add and Remove are never called from the goroutine that drains Events and Errors.
type kernel interface {
	Add(path string) error
	Remove(path string) error
	Close() error
	Events() <-chan fsnotify.Event
	Errors() <-chan error
}

// kernelSpec is a kernel and its cost model, which decides whether the Watcher budgets file descriptors.
type kernelSpec struct {
	open func() (kernel, error)
	// perEntry: a watched directory holds a file descriptor for itself and one for each of its entries, and
	// the kernel opens one for every entry created in it later; a watched file holds one (kqueue). When false,
	// watches cost no descriptors (inotify spends one for the whole instance; Windows one handle per
	// directory root, which the Watcher never has many of).
	perEntry bool
	// fdLimit is the process's descriptor limit (the soft RLIMIT_NOFILE); 0 when unknown.
	fdLimit func() int
}

// fsnotifyKernel is the platform's kernel: kqueue on macOS and the BSDs costs descriptors (kqueueGOOS).
var fsnotifyKernel = kernelSpec{
	open: func() (kernel, error) {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return nil, err
		}
		return fsnotifyWatcher{w}, nil
	},
	perEntry: kqueueGOOS,
	fdLimit:  descriptorLimit,
}

type fsnotifyWatcher struct{ w *fsnotify.Watcher }

func (f fsnotifyWatcher) Add(path string) error         { return f.w.Add(path) }
func (f fsnotifyWatcher) Remove(path string) error      { return f.w.Remove(path) }
func (f fsnotifyWatcher) Close() error                  { return f.w.Close() }
func (f fsnotifyWatcher) Events() <-chan fsnotify.Event { return f.w.Events }
func (f fsnotifyWatcher) Errors() <-chan error          { return f.w.Errors }
