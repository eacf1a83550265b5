//go:build !unix

package gitfmt

// OpenNoBlock: the platform has no O_NONBLOCK; callers check the opened file.
const OpenNoBlock = 0
