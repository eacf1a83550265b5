package roots

// SetWindowsGrammar applies the Windows path grammar to client paths (or not) until the returned
// function is called, whatever the OS.
func SetWindowsGrammar(on bool) (restore func()) {
	was := windowsGrammar
	windowsGrammar = on
	return func() { windowsGrammar = was }
}
