package hostile

// The suite runs a binary it builds, so go test's cache cannot see the code
// under test and would replay an old pass. Importing the server, which holds
// every package of the binary but main.go's flag parsing, makes a change to
// any of them run the suite again.
import _ "github.com/grove-mcp/grove/server"
