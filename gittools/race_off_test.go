//go:build !race

package gittools

const raceEnabled = false
