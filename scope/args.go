package scope

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Optional arguments are plain types that may be omitted. jsonschema-go
// infers a slice or a pointer as a nullable union (["null", "array"],
// ["null", "integer"]), which clients that build a call from the schema's
// type cannot fill: the MCP Inspector converts a form value only when "type"
// is a single string, and sends context_lines=1 as "1" otherwise. Go keeps the
// difference between absent and zero (a nil *int), so the schema need not say
// null; a client that sends null anyway has it read as absent.

// plainTypes replaces every nullable union in s, at any depth, by its
// non-null type.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, typ := range s.Types {
			if typ != "null" {
				s.Type, s.Types = typ, nil
			}
		}
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
	plainTypes(s.AdditionalProperties)
}

// dropNulls deletes the arguments whose value is null: an optional argument
// sent as null means the same as one left out.
func dropNulls(args map[string]any) {
	maps.DeleteFunc(args, func(_ string, v any) bool { return v == nil })
}

// checkTypes checks each argument's JSON type against its property's plain
// type, to answer a mismatch in words that name the argument: the schema
// validator's "validating /properties/x: type: 1 has type "string", want
// "integer"" does not tell a user that a quoted number is the trouble.
func checkTypes(s *jsonschema.Schema, args map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p := s.Properties[name]
		if p == nil || p.Type == "" {
			continue
		}
		if got := jsonType(args[name]); !typeFits(got, p.Type) {
			return fmt.Errorf("argument %q must be %s, not %s%s", name, article(p.Type), describe(args[name], got), hint(p.Type, got))
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, args[name]) {
			return fmt.Errorf("argument %q must be one of %s, not %s", name, enumList(p.Enum), describe(args[name], jsonType(args[name])))
		}
	}
	return nil
}

// jsonType names v's JSON type, as decoded by encoding/json into any.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == math.Trunc(v) && !math.IsInf(v, 0) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeFits(got, want string) bool {
	return got == want || (want == "number" && got == "integer")
}

func article(typ string) string {
	switch typ {
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

// describe shows a short value of the wrong type, so the user sees what was
// sent; long values are only named by their type.
func describe(v any, typ string) string {
	if s, ok := v.(string); ok && len(s) <= 40 {
		return fmt.Sprintf("the string %q", s)
	}
	return article(typ)
}

func hint(want, got string) string {
	switch {
	case got == "string" && (want == "integer" || want == "number" || want == "boolean"):
		return fmt.Sprintf(" (send it unquoted, e.g. %s)", map[string]string{"integer": "3", "number": "1.5", "boolean": "true"}[want])
	case got == "string" && want == "array":
		return ` (send a JSON list, e.g. ["a.go"])`
	case got == "number" && want == "integer":
		return " (a whole number)"
	}
	return ""
}

// enumList says an enum's values for an error message.
func enumList(values []any) string {
	var b strings.Builder
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, v)
	}
	return b.String()
}
