package cli

import "testing"

func TestShellQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/home/me/go/bin/grove", "/home/me/go/bin/grove"},
		{"/home/me/my tools/grove", "'/home/me/my tools/grove'"},
		{"/tmp/it's/grove", `'/tmp/it'\''s/grove'`},
		{"", "''"},
	} {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
