package roots_test

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
)

func TestCheckWindowsPath(t *testing.T) {
	for _, tt := range []struct{ path, wantErr string }{
		// ordinary paths
		{`C:\Users\me\project\main.go`, ""},
		{`C:/Users/me/project/main.go`, ""},
		{`src\main.go`, ""},
		{`src/sub\mixed/separators.go`, ""},
		{`..\..\escape`, ""}, // lexical: confined by os.Root like anywhere else
		{`.git\config`, ""},
		{`console.log`, ""},
		{`COM10`, ""},
		{`LPT`, ""},
		{`nul-terminated.txt`, ""},
		{`my~file.txt`, ""},
		{`backup~`, ""},
		{`a~b1.txt`, ""},
		{`.hidden`, ""},
		// reserved device names, any case, with extensions, trailing spaces before the extension
		{`CON`, "reserved device name"},
		{`con`, "reserved device name"},
		{`src\NUL`, "reserved device name"},
		{`src/nul.txt`, "reserved device name"},
		{`PRN.tar.gz`, "reserved device name"},
		{`Aux`, "reserved device name"},
		{`COM1`, "reserved device name"},
		{`com9.log`, "reserved device name"},
		{`COM0`, "reserved device name"},
		{`LPT1`, "reserved device name"},
		{`lpt5.txt`, "reserved device name"},
		{`NUL .txt`, "reserved device name"},
		{`COM¹`, "reserved device name"},
		{`lpt².txt`, "reserved device name"},
		{`LPT³`, "reserved device name"},
		{`CONIN$`, "reserved device name"},
		{`conout$.txt`, "reserved device name"},
		{`C:\project\CON\file.txt`, "reserved device name"},
		// trailing dots and spaces
		{`NUL.`, "ending in a dot or a space"},
		{`CON `, "ending in a dot or a space"},
		{`notes.`, "ending in a dot or a space"},
		{`.git.`, "ending in a dot or a space"},
		{`.git ..`, "ending in a dot or a space"},
		{`dir \file`, "ending in a dot or a space"},
		{`C:\project\secret. \x`, "ending in a dot or a space"},
		// alternate data streams
		{`a.txt:secret`, "alternate data stream"},
		{`a.txt::$DATA`, "alternate data stream"},
		{`src\a.txt:Zone.Identifier:$DATA`, "alternate data stream"},
		{`C:\project\dir:stream\x`, "alternate data stream"},
		// 8.3 short names
		{`PROGRA~1`, "8.3 short name"},
		{`C:\PROGRA~1\app`, "8.3 short name"},
		{`GIT~1\config`, "8.3 short name"},
		{`longfi~12.txt`, "8.3 short name"},
		// drive-relative, and a drive in a relative position
		{`C:foo`, "drive-relative"},
		{`c:`, "drive-relative"},
		{`C:..\x`, "drive-relative"},
		{`src\C:\Windows`, "drive inside a path"},
		{`src/D:/x`, "drive inside a path"},
		// UNC and device paths, any separators
		{`\\server\share\x`, "UNC or device path"},
		{`//server/share/x`, "UNC or device path"},
		{`\/server\share`, "UNC or device path"},
		{`\\?\C:\Windows`, "UNC or device path"},
		{`\\.\PhysicalDrive0`, "UNC or device path"},
		{`//?/C:/x`, "UNC or device path"},
		{`\\?\UNC\server\share`, "UNC or device path"},
		{`\??\C:\x`, "NT object path"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			err := roots.CheckWindowsPath(tt.path)
			checkErr(t, "CheckWindowsPath", err, tt.wantErr)
			if err != nil && !errors.Is(err, roots.ErrWindowsPath) {
				t.Errorf("CheckWindowsPath(%q) = %v, not ErrWindowsPath", tt.path, err)
			}
		})
	}
}

func TestCheckWindowsRel(t *testing.T) {
	for _, tt := range []struct{ path, wantErr string }{
		{`**/*.go`, ""},
		{`cmd\*\main.go`, ""},
		{`C:\x`, "drive letter"},
		{`C:*.go`, "drive letter"},
		{`\Windows\*`, "rooted path"},
		{`/etc/*`, "rooted path"},
		{`\\server\share\*`, "UNC or device path"},
		{`*.txt:secret`, "alternate data stream"},
		{`NUL`, "reserved device name"},
		{`PROGRA~1/*`, "8.3 short name"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			checkErr(t, "CheckWindowsRel", roots.CheckWindowsRel(tt.path), tt.wantErr)
		})
	}
}

// TestWindowsGrammarResolve applies the grammar, as on Windows, to what a client names: paths, URIs and
// client roots are refused with the rule, naming only the input; ordinary paths still resolve.
func TestWindowsGrammarResolve(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, "-- proj/a.txt --\nA\n-- proj/sub/b.txt --\nB\n")
	sc := newScope(t, filepath.Join(tmp, "proj"))
	defer roots.SetWindowsGrammar(true)()
	proj := filepath.Join(tmp, "proj")
	for _, tt := range []struct{ input, wantErr string }{
		{"a.txt", ""},
		{"sub/b.txt", ""},
		{filepath.Join(proj, "sub", "b.txt"), ""},
		{roots.URI(filepath.Join(proj, "a.txt")), ""},
		{"a.txt:secret", "alternate data stream"},
		{"a.txt::$DATA", "alternate data stream"},
		{"sub/NUL.txt", "reserved device name"},
		{"CON", "reserved device name"},
		{"a.txt.", "ending in a dot"},
		{"PROGRA~1/a.txt", "8.3 short name"},
		{"C:a.txt", "drive-relative"},
		{`\\server\share\a.txt`, "UNC or device path"},
		{roots.URI(filepath.Join(proj, "a.txt")) + ":secret", "alternate data stream"},
		{roots.URI(filepath.Join(proj, "com1")), "reserved device name"},
		{"file:////server/share/a.txt", "UNC or device path"},
	} {
		t.Run(tt.input, func(t *testing.T) {
			_, err := sc.Resolve(tt.input)
			checkErr(t, "Resolve", err, tt.wantErr)
			if err != nil && strings.Contains(err.Error(), tmp) && !strings.Contains(tt.input, tmp) {
				t.Errorf("Resolve(%q) = %v: names a real path", tt.input, err)
			}
		})
	}

}

// TestWindowsGrammarClientRoots: client roots that name directories by Windows-refused names are dropped
// with the rule when the grammar applies, and accepted without it (they exist: the names are legal here).
func TestWindowsGrammarClientRoots(t *testing.T) {
	proj := filepath.Join(realTempDir(t), "proj")
	modes := []bool{true}
	if runtime.GOOS != "windows" {
		mkdirAll(t, filepath.Join(proj, "sub:stream"))
		mkdirAll(t, filepath.Join(proj, "NUL"))
		modes = append(modes, false)
	} else {
		mkdirAll(t, proj)
	}
	client := []roots.ClientRoot{{URI: filepath.Join(proj, "sub:stream")}, {URI: roots.URI(filepath.Join(proj, "NUL"))}}
	for _, on := range modes {
		restore := roots.SetWindowsGrammar(on)
		set, err := roots.NewSet([]string{proj}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		sc := set.SetClient(client)
		dropped := set.Dropped()
		restore()
		switch {
		case on && (!sc.Empty() || len(dropped) != 2 || !strings.Contains(strings.Join(dropped, "\n"), "refused on Windows")):
			t.Errorf("with the grammar: roots %v, dropped %q; want both refused on Windows", sc.Roots(), dropped)
		case !on && len(sc.Roots()) != 2:
			t.Errorf("without the grammar: roots %v, dropped %q; want both", sc.Roots(), dropped)
		}
	}
}

// TestUnixNamesStayLegal: without the grammar (Linux, macOS), names that Windows refuses are ordinary
// file names, and they resolve.
func TestUnixNamesStayLegal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix names")
	}
	tmp := realTempDir(t)
	sc := newScope(t, tmp)
	defer roots.SetWindowsGrammar(false)()
	for _, name := range []string{"a:b", "CON", "nul.txt", "PROGRA~1", "notes.", "trailing "} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(name), 0o644); err != nil {
			t.Skipf("the file system refuses %q: %v", name, err)
		}
		got, err := resolveAndRead(t, sc, name)
		if err != nil || got != name {
			t.Errorf("reading %q = %q, %v; want its contents", name, got, err)
		}
	}
}
