// Package dirstream reads a directory as a stream, in the order the file
// system gives its entries (getdents64 on Linux), each with the d_off that a
// later listing resumes from: fsres lists a huge directory this way, a page
// at a time, without reading all of it first. Every descriptor is opened
// through an [os.Root], so no name read leaves it. Where the system has no
// d_off to resume by, [Supported] is false and Open fails.
//
//	d, err := dirstream.Open(dir, 0, 100)
//	…
//	defer d.Close()
//	for d.More() {
//		for _, e := range d.Entries { … }
//		d.Entries = d.Entries[:0]
//	}
package dirstream

import "io/fs"

// Entry is one entry of a directory as getdents64 gives it.
type Entry struct {
	Name  string
	Type  fs.FileMode // type bits; valid when Known
	Known bool        // the file system gave the type (else Lstat tells it)
	Off   int64       // d_off: where the listing goes on after this entry
}
