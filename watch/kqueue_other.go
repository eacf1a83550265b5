//go:build !(darwin || freebsd || openbsd || netbsd || dragonfly)

package watch

// kqueueGOOS: fsnotify uses kqueue on macOS and the BSDs, which holds a descriptor per watched directory and
// file; not here.
const kqueueGOOS = false
