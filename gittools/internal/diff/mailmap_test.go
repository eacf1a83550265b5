package diff

import "testing"

func TestMailmap(t *testing.T) {
	var m mailmap
	m.byEmail, m.byNameEmail = map[string]mailmapEntry{}, map[string]mailmapEntry{}
	for _, line := range []string{
		"# a comment",
		"Proper Name <commit@example.com>",
		"<proper@example.com> <old@example.com> # trailing comment",
		"Both Name <both@example.com> <Mixed@Example.com>",
		"Pair Name <pair@example.com> Old Name <shared@example.com>",
		"no address here",
	} {
		m.parse(line)
	}
	for _, tt := range []struct{ name, email, wantName, wantEmail string }{
		{"someone", "commit@example.com", "Proper Name", "commit@example.com"},
		{"someone", "old@example.com", "someone", "proper@example.com"},
		{"x", "mixed@example.COM", "Both Name", "both@example.com"},
		{"old name", "shared@example.com", "Pair Name", "pair@example.com"},
		{"Other Name", "shared@example.com", "Other Name", "shared@example.com"},
		{"stranger", "none@example.com", "stranger", "none@example.com"},
	} {
		name, email := m.apply(tt.name, tt.email)
		if name != tt.wantName || email != tt.wantEmail {
			t.Errorf("apply(%q, %q) = %q, %q; want %q, %q", tt.name, tt.email, name, email, tt.wantName, tt.wantEmail)
		}
	}
}

func TestFuncLines(t *testing.T) {
	for _, tt := range []struct {
		rule       func(string) (string, bool)
		line, want string
		ok         bool
	}{
		{cppFuncLine, "static int f(void)\n", "static int f(void)", true},
		{cppFuncLine, "out:\n", "", false},
		{cppFuncLine, "public: // access\n", "", false},
		{cppFuncLine, "::g()\n", "::g()", true},
		{cppFuncLine, "\tint x;\n", "", false},
		{pythonFuncLine, "    def edit(self):\n", "def edit(self):", true},
		{pythonFuncLine, "async def run():\n", "async def run():", true},
		{pythonFuncLine, "    x = 1\n", "", false},
		{perlFuncLine, "sub get_file($$$) {\n", "($$$)", true},
		{perlFuncLine, "sub plain {\n", "sub plain {", true},
		{perlFuncLine, "sub inline { return 1; }\n", "", false},
		{perlFuncLine, "package Foo;\n", "package Foo;", true},
		{perlFuncLine, "BEGIN {\n", "BEGIN {", true},
		{perlFuncLine, "=head1 NAME\n", "=head1 NAME", true},
	} {
		got, ok := tt.rule(tt.line)
		if got != tt.want || ok != tt.ok {
			t.Errorf("rule(%q) = %q, %v; want %q, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
