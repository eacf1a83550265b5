package scope

import (
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// An argument with a fixed set of values declares them in an enum tag, next to its description:
//
//	BranchType string `json:"branch_type,omitempty" jsonschema:"local (default), remote or all" enum:"local,remote,all"`
//
// AddTool puts them into the input schema as "enum", so that clients see the values and a call with any other
// value (the empty string included) is refused by the schema validation, before the handler runs.
// jsonschema-go v0.4.3 infers descriptions from tags but has no tag for enums.

// addEnums sets the enum of every property of schema s (inferred from t) whose field has an enum tag (on a
// list, the enum of its items), in nested structs and lists of them too.
func addEnums(t reflect.Type, s *jsonschema.Schema) {
	if s == nil {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		addEnums(t.Elem(), s)
	case reflect.Slice, reflect.Array:
		addEnums(t.Elem(), s.Items)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			p := s.Properties[name]
			if p == nil {
				continue
			}
			if values, ok := f.Tag.Lookup("enum"); ok {
				target := p
				if k := f.Type.Kind(); (k == reflect.Slice || k == reflect.Array) && p.Items != nil {
					target = p.Items
				}
				for v := range strings.SplitSeq(values, ",") {
					target.Enum = append(target.Enum, v)
				}
			}
			addEnums(f.Type, p)
		}
	}
}
