//go:build darwin || freebsd || openbsd || netbsd || dragonfly

package watch

// kqueueGOOS: fsnotify uses kqueue here, which holds a descriptor per watched directory and file.
const kqueueGOOS = true
