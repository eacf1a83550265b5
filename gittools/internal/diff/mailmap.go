package diff

import (
	"bufio"
	"io"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// mailmap maps the names and addresses commits carry to canonical ones, from the worktree's .mailmap in
// the forms gitmailmap(5) documents; `git show` applies it to the author line by default.
type mailmap struct {
	byEmail     map[string]mailmapEntry // commit address (lower case) -> replacement
	byNameEmail map[string]mailmapEntry // commit name + "\x00" + address (lower case) -> replacement
}

type mailmapEntry struct{ name, email string } // "" keeps the commit's

// maxMailmap bounds the .mailmap read; a larger one is ignored.
const maxMailmap = 4 << 20

func readMailmap(rp *repo.Repo) *mailmap {
	m := &mailmap{byEmail: map[string]mailmapEntry{}, byNameEmail: map[string]mailmapEntry{}}
	f, info, err := rp.Loc.Join(".mailmap").OpenFile()
	if err != nil {
		return m
	}
	defer f.Close()
	if !info.Mode().IsRegular() || info.Size() > maxMailmap {
		return m
	}
	sc := bufio.NewScanner(io.LimitReader(f, maxMailmap))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		m.parse(sc.Text())
	}
	return m
}

// parse reads one line: "Name <a>", "<new> <a>", "Name <new> <a>" or "Name <new> Old Name <a>".
func (m *mailmap) parse(line string) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	var names, emails []string
	for len(emails) < 2 {
		lt := strings.IndexByte(line, '<')
		gt := strings.IndexByte(line, '>')
		if lt < 0 || gt < lt {
			break
		}
		names = append(names, strings.TrimSpace(line[:lt]))
		emails = append(emails, line[lt+1:gt])
		line = line[gt+1:]
	}
	switch len(emails) {
	case 1:
		if names[0] != "" {
			m.byEmail[strings.ToLower(emails[0])] = mailmapEntry{name: names[0]}
		}
	case 2:
		e := mailmapEntry{name: names[0], email: emails[0]}
		if names[1] == "" {
			m.byEmail[strings.ToLower(emails[1])] = e
		} else {
			m.byNameEmail[strings.ToLower(names[1])+"\x00"+strings.ToLower(emails[1])] = e
		}
	}
}

// apply returns the canonical name and address for a commit's.
func (m *mailmap) apply(name, email string) (string, string) {
	e, ok := m.byNameEmail[strings.ToLower(name)+"\x00"+strings.ToLower(email)]
	if !ok {
		e, ok = m.byEmail[strings.ToLower(email)]
	}
	if !ok {
		return name, email
	}
	if e.name != "" {
		name = e.name
	}
	if e.email != "" {
		email = e.email
	}
	return name, email
}
