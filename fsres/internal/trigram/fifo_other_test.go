//go:build !unix

package trigram

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
