//go:build race

package gittools

// raceEnabled: the race detector multiplies memory use several times, so memory bounds are not checked.
const raceEnabled = true
