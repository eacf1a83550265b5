//go:build !unix

package main

import "os"

// rusageFaults returns 0: the process's page faults are not known here.
func rusageFaults(*os.ProcessState) int64 { return 0 }
