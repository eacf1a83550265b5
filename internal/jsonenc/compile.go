package jsonenc

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// An encoder appends the JSON of a value of its type; depth counts the
// pointers, slices, maps and interfaces above it.
type encoder struct {
	fn func(dst []byte, v reflect.Value, depth int) ([]byte, error)
}

var (
	appenderType      = reflect.TypeFor[Appender]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

// compiler builds the encoder of one top-level type.
type compiler struct {
	seen map[reflect.Type]*encoder // compiled or being compiled (recursive types)
	bad  bool                      // some type below cannot be compiled
}

// compile returns t's encoder, or nil when encoding/json must encode t.
func (c *compiler) compile(t reflect.Type) *encoder {
	e := c.encoder(t)
	if c.bad {
		return nil
	}
	return e
}

func (c *compiler) encoder(t reflect.Type) *encoder {
	if e, ok := c.seen[t]; ok {
		return e
	}
	e := &encoder{}
	c.seen[t] = e
	e.fn = c.build(t)
	if e.fn == nil {
		c.bad = true
	}
	return e
}

// build returns the function encoding t, or nil.
func (c *compiler) build(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	if t.Kind() != reflect.Interface && t.Implements(appenderType) {
		return encodeAppender
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(reflect.PointerTo(t).Implements(marshalerType) && !t.Implements(marshalerType) ||
			reflect.PointerTo(t).Implements(textMarshalerType) && !t.Implements(textMarshalerType)) {
		return nil // encoding/json calls these methods only on addressable values
	}
	if t.Kind() != reflect.Interface && (t.Implements(marshalerType) || t.Implements(textMarshalerType)) || t == numberType {
		return valueFallback
	}
	switch t.Kind() {
	case reflect.Bool:
		return encodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return encodeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return encodeUint
	case reflect.Float32, reflect.Float64:
		return valueFallback
	case reflect.String:
		return encodeString
	case reflect.Interface:
		return encodeInterface
	case reflect.Pointer:
		return c.pointer(t)
	case reflect.Slice:
		return c.slice(t)
	case reflect.Array:
		return c.array(t)
	case reflect.Map:
		return c.mapOf(t)
	case reflect.Struct:
		return c.structOf(t)
	}
	return nil // channels, functions, complex numbers: encoding/json's error
}

// encodeAppender lets the value append itself.
func encodeAppender(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(dst, "null"...), nil
	}
	return v.Interface().(Appender).AppendJSON(dst)
}

func valueFallback(dst []byte, v reflect.Value, _ int) ([]byte, error) { return fallbackValue(dst, v) }

func encodeBool(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	return strconv.AppendBool(dst, v.Bool()), nil
}

func encodeInt(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	return strconv.AppendInt(dst, v.Int(), 10), nil
}

func encodeUint(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	return strconv.AppendUint(dst, v.Uint(), 10), nil
}

func encodeString(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	return AppendString(dst, v.String()), nil
}

// encodeInterface encodes the dynamic value, which is not addressable.
func encodeInterface(dst []byte, v reflect.Value, depth int) ([]byte, error) {
	if v.IsNil() {
		return append(dst, "null"...), nil
	}
	if depth++; depth > maxDepth {
		return dst, errTooDeep
	}
	elem := v.Elem()
	enc := encoderOf(elem.Type()).enc
	if enc == nil {
		return fallbackValue(dst, elem)
	}
	return enc.fn(dst, elem, depth)
}

func (c *compiler) pointer(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	elem := c.encoder(t.Elem())
	return func(dst []byte, v reflect.Value, depth int) ([]byte, error) {
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return dst, errTooDeep
		}
		return elem.fn(dst, v.Elem(), depth)
	}
}

func (c *compiler) slice(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	et := t.Elem()
	if et.Kind() == reflect.Uint8 && !reflect.PointerTo(et).Implements(marshalerType) && !reflect.PointerTo(et).Implements(textMarshalerType) {
		return encodeBytes
	}
	elems := c.array(t)
	return func(dst []byte, v reflect.Value, depth int) ([]byte, error) {
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return dst, errTooDeep
		}
		return elems(dst, v, depth)
	}
}

// encodeBytes encodes a []byte as a base64 string.
func encodeBytes(dst []byte, v reflect.Value, _ int) ([]byte, error) {
	if v.IsNil() {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, v.Bytes())
	return append(dst, '"'), nil
}

func (c *compiler) array(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	elem := c.encoder(t.Elem())
	return func(dst []byte, v reflect.Value, depth int) (_ []byte, err error) {
		dst = append(dst, '[')
		if dst, err = split(dst, v, elem, depth); err != nil {
			return dst, err
		}
		return append(dst, ']'), nil
	}
}

// elements appends the elements v[from:to], comma-separated.
func elements(dst []byte, v reflect.Value, elem *encoder, depth, from, to int) (_ []byte, err error) {
	for i := from; i < to; i++ {
		if i > from {
			dst = append(dst, ',')
		}
		if dst, err = elem.fn(dst, v.Index(i), depth); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// mapOf encodes maps with string or integer keys, sorted by key as
// encoding/json sorts them.
func (c *compiler) mapOf(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	kt := t.Key()
	var key func(reflect.Value) string
	switch kt.Kind() {
	case reflect.String:
		key = reflect.Value.String
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if kt.Implements(textMarshalerType) || reflect.PointerTo(kt).Implements(textMarshalerType) {
			return nil
		}
		key = func(k reflect.Value) string { return strconv.FormatInt(k.Int(), 10) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if kt.Implements(textMarshalerType) || reflect.PointerTo(kt).Implements(textMarshalerType) {
			return nil
		}
		key = func(k reflect.Value) string { return strconv.FormatUint(k.Uint(), 10) }
	default:
		return nil
	}
	elem := c.encoder(t.Elem())
	return func(dst []byte, v reflect.Value, depth int) (_ []byte, err error) {
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return dst, errTooDeep
		}
		type kv struct {
			k string
			v reflect.Value
		}
		entries := make([]kv, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, kv{key(it.Key()), it.Value()})
		}
		slices.SortFunc(entries, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		dst = append(dst, '{')
		for i, e := range entries {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e.k)
			dst = append(dst, ':')
			if dst, err = elem.fn(dst, e.v, depth); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
}

// field is one encoded field of a struct.
type field struct {
	index     []int  // for reflect.Value.FieldByIndex: more than one for a promoted field
	key       []byte // `"name":`
	omitEmpty bool
	omitZero  bool
	kind      reflect.Kind // String or Int: encoded inline, without a call through enc
	enc       *encoder
}

// structOf encodes structs field by field in declaration order, the fields
// of embedded structs in the embedded field's place.
func (c *compiler) structOf(t reflect.Type) func([]byte, reflect.Value, int) ([]byte, error) {
	fields, ok := c.fields(t, nil)
	if !ok {
		return nil
	}
	names := map[string]bool{}
	for _, f := range fields {
		if names[string(f.key)] {
			return nil // a name twice: encoding/json's rules pick one, or none
		}
		names[string(f.key)] = true
	}
	return func(dst []byte, v reflect.Value, depth int) (_ []byte, err error) {
		dst = append(dst, '{')
		first := true
		for i := range fields {
			f := &fields[i]
			var fv reflect.Value
			if len(f.index) == 1 {
				fv = v.Field(f.index[0])
			} else {
				fv = v.FieldByIndex(f.index)
			}
			if f.omitEmpty && isEmpty(fv) || f.omitZero && fv.IsZero() {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, f.key...)
			switch f.kind {
			case reflect.String:
				dst = AppendString(dst, fv.String())
			case reflect.Int:
				dst = strconv.AppendInt(dst, fv.Int(), 10)
			default:
				if dst, err = f.enc.fn(dst, fv, depth); err != nil {
					return dst, err
				}
			}
		}
		return append(dst, '}'), nil
	}
}

// fields returns the encoded fields of t, whose own index is at; false when
// a field needs rules only encoding/json applies (an embedded pointer, an
// embedded field with a tag, the ",string" option, a type's own IsZero for
// omitzero).
func (c *compiler) fields(t reflect.Type, at []int) ([]field, bool) {
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(slices.Clip(at), i)
		tag := sf.Tag.Get("json")
		if sf.Anonymous {
			if tag != "" || sf.Type.Kind() != reflect.Struct {
				return nil, false
			}
			inner, ok := c.fields(sf.Type, index)
			if !ok {
				return nil, false
			}
			fields = append(fields, inner...)
			continue
		}
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			name = sf.Name
		}
		f := field{index: index, enc: c.encoder(sf.Type)}
		if sf.Type.PkgPath() == "" && (sf.Type.Kind() == reflect.String || sf.Type.Kind() == reflect.Int) {
			f.kind = sf.Type.Kind() // string and int themselves: no methods
		}
		for o := range strings.SplitSeq(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				if hasIsZero(sf.Type) {
					return nil, false
				}
				f.omitZero = true
			case "string":
				return nil, false
			}
		}
		f.key = append(AppendString(nil, name), ':')
		fields = append(fields, f)
	}
	return fields, true
}

// validName reports whether a tag's name is one encoding/json uses: not
// empty, of letters, digits and the punctuation its documentation allows.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r):
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return false
		}
	}
	return true
}

// hasIsZero reports whether t or *t has an IsZero method, which omitzero
// would call.
func hasIsZero(t reflect.Type) bool {
	_, ok := t.MethodByName("IsZero")
	_, okPtr := reflect.PointerTo(t).MethodByName("IsZero")
	return ok || okPtr
}

// isEmpty is omitempty's test: false, 0, a nil pointer or interface, an
// empty string, slice, map or array.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
