package scope

import (
	"fmt"
	"strings"
)

// RefuseTilde refuses a path argument that starts with "~" ("~", "~/x", "~user/x"). grove runs no shell, so
// nothing expands it: resolved relative to a root, "~/newrepo" would name (and git_init would create) a
// directory literally called "~". Every feature resolving client paths calls it first, so the model learns to
// send absolute paths. A file whose name starts with "~" can still be named as "./~name".
func RefuseTilde(arg string) error {
	if !strings.HasPrefix(arg, "~") {
		return nil
	}
	return fmt.Errorf("paths are not shell-expanded: %q starts with \"~\"; give an absolute path or a file:// URI "+
		"inside a root (list_roots shows them), or ./%s for a file whose name starts with ~", arg, arg)
}
