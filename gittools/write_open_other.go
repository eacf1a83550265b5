//go:build !unix

package gittools

// openNoFollow: the platform has no O_NOFOLLOW/O_NONBLOCK; callers Lstat first and check the opened file.
const openNoFollow = 0

// openNoBlock: see openNoFollow.
const openNoBlock = 0
