package grep

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// fileTypes names languages and formats by the globs of their file names,
// with the names and globs ripgrep documents (rg --type-list).
var fileTypes = map[string][]string{
	"asm":      {"*.S", "*.asm", "*.s"},
	"awk":      {"*.awk"},
	"bazel":    {"*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"},
	"c":        {"*.[chH]", "*.[chH].in", "*.cats"},
	"clojure":  {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
	"cmake":    {"*.cmake", "CMakeLists.txt"},
	"config":   {"*.cfg", "*.conf", "*.config", "*.ini"},
	"cpp":      {"*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"},
	"cs":       {"*.cs"},
	"csharp":   {"*.cs"},
	"css":      {"*.css", "*.scss"},
	"csv":      {"*.csv"},
	"d":        {"*.d"},
	"dart":     {"*.dart"},
	"docker":   {"*Dockerfile*"},
	"elixir":   {"*.eex", "*.ex", "*.exs"},
	"elm":      {"*.elm"},
	"erlang":   {"*.erl", "*.hrl"},
	"fortran":  {"*.F", "*.F77", "*.F90", "*.F95", "*.f", "*.f77", "*.f90", "*.f95", "*.pfo"},
	"fsharp":   {"*.fs", "*.fsi", "*.fsx"},
	"go":       {"*.go"},
	"gradle":   {"*.gradle"},
	"groovy":   {"*.gradle", "*.groovy"},
	"h":        {"*.h", "*.hpp"},
	"haskell":  {"*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"},
	"hs":       {"*.hs", "*.lhs"},
	"html":     {"*.ejs", "*.htm", "*.html"},
	"java":     {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"js":       {"*.js", "*.jsx", "*.vue"},
	"json":     {"*.json", "composer.lock"},
	"jsonl":    {"*.jsonl"},
	"julia":    {"*.jl"},
	"kotlin":   {"*.kt", "*.kts"},
	"less":     {"*.less"},
	"lua":      {"*.lua"},
	"make":     {"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"},
	"markdown": {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
	"matlab":   {"*.m"},
	"md":       {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
	"ml":       {"*.ml"},
	"nim":      {"*.nim", "*.nimble", "*.nimf", "*.nims"},
	"objc":     {"*.h", "*.m"},
	"objcpp":   {"*.h", "*.mm"},
	"ocaml":    {"*.ml", "*.mli", "*.mll", "*.mly"},
	"perl":     {"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"},
	"php":      {"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"},
	"protobuf": {"*.proto"},
	"ps":       {"*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"},
	"py":       {"*.py"},
	"r":        {"*.R", "*.Rmd", "*.Rnw", "*.r"},
	"rst":      {"*.rst"},
	"ruby":     {"*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"},
	"rust":     {"*.rs"},
	"sass":     {"*.sass", "*.scss"},
	"scala":    {"*.sbt", "*.scala"},
	"sh": {"*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh",
		".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout",
		".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login",
		"bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
	"sql":     {"*.psql", "*.sql"},
	"swift":   {"*.swift"},
	"tcl":     {"*.tcl"},
	"tex":     {"*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"},
	"tf":      {"*.tf"},
	"toml":    {"*.toml", "Cargo.lock"},
	"ts":      {"*.ts", "*.tsx"},
	"txt":     {"*.txt"},
	"verilog": {"*.sv", "*.svh", "*.v", "*.vh"},
	"vhdl":    {"*.vhd", "*.vhdl"},
	"vim":     {"*.vim"},
	"xml":     {"*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"},
	"yaml":    {"*.yaml", "*.yml"},
	"zig":     {"*.zig"},
}

// TypeFilter returns a test of base names for the file type name (as
// ripgrep's --type: go, py, js, ts, c, cpp, rust, java, md, …).
func TypeFilter(name string) (func(base string) bool, error) {
	globs, ok := fileTypes[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown file type %q; known types: %s", name, strings.Join(slices.Sorted(maps.Keys(fileTypes)), ", "))
	}
	return func(base string) bool {
		for _, g := range globs {
			if ok, _ := path.Match(g, base); ok {
				return true
			}
		}
		return false
	}, nil
}
