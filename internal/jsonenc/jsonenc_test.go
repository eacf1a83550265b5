package jsonenc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// stdJSON is what Append must give: encoding/json's Encoder with HTML
// escaping off, without the newline.
func stdJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

type match struct {
	Path string `json:"path" jsonschema:"relative"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

type answer struct {
	Path    string         `json:"path"`
	Matches []match        `json:"matches"`
	Listed  []string       `json:"files,omitempty"`
	Total   int            `json:"total_matches"`
	Cut     bool           `json:"cut,omitempty"`
	Size    uint32         `json:"size,omitzero"`
	Ptr     *match         `json:"ptr,omitempty"`
	Any     any            `json:"any"`
	Tags    map[string]int `json:"tags,omitempty"`
	ByNum   map[int]string `json:"by_num,omitempty"`
	Raw     json.RawMessage
	Blob    []byte    `json:"blob,omitempty"`
	Arr     [2]int8   `json:"arr"`
	Ratio   float64   `json:"ratio,omitempty"`
	When    time.Time `json:"when"`
	Bad     string    `json:"a\"b"` // an invalid name: the field's name instead
	Skip    string    `json:"-"`
	Dash    string    `json:"-,"`
	hidden  string
	Num     json.Number `json:"num,omitempty"`
	Tree    *node       `json:"tree,omitempty"`
}

type node struct {
	Name string  `json:"name"`
	Kids []*node `json:"kids,omitempty"`
}

// valueMarshaler has a MarshalJSON of its own, with a value receiver.
type valueMarshaler struct{ N int }

func (v valueMarshaler) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "{ \"n\" : %d }", v.N), nil
}

// ptrMarshaler's MarshalJSON has a pointer receiver: encoding/json calls it
// only on addressable values, so Append hands the whole value over.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type embedded struct {
	match
	Extra string `json:"extra"`
}

// shadowed has a field of its own named as a promoted one: encoding/json
// keeps the outer, Append hands the type over.
type shadowed struct {
	match
	Path string `json:"path"`
}

type embeddedPointer struct {
	*match
}

type unexportedInner struct{ A, b string }

type embeddedUnexported struct {
	unexportedInner
	C string
}

type withString struct {
	N int `json:"n,string"`
}

type dup struct {
	A string `json:"X"`
	X string
}

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("T" + string(k)), nil }

func TestAppendMatchesEncodingJSON(t *testing.T) {
	full := answer{
		Path:    "/work/<repo>&",
		Matches: []match{{"a.c", 1, "\treturn \"x\" <b> & \\ \u2028 \x00\x1f\b\f\x7f é 😀"}, {"b\x80.c", 2, "bad \xff\xfe utf-8"}},
		Listed:  []string{"a", ""},
		Total:   2, Cut: true, Size: 7,
		Ptr:   &match{Path: "p"},
		Any:   map[string]any{"z": 1.5, "a": []any{nil, true, "s", valueMarshaler{3}}},
		Tags:  map[string]int{"b": 2, "a": 1, "": 0},
		ByNum: map[int]string{10: "ten", 9: "nine", -1: "minus"},
		Raw:   json.RawMessage(`{ "spaced" : [1, 2] }`),
		Blob:  []byte{0, 1, 2, 250},
		Arr:   [2]int8{-1, 1}, Ratio: 1e-7,
		When: time.Date(2026, 11, 27, 13, 0, 0, 5, time.UTC),
		Bad:  "bad", Skip: "no", Dash: "dash", hidden: "no",
		Num:  "12.5e3",
		Tree: &node{Name: "r", Kids: []*node{{Name: "k"}, nil}},
	}
	for _, tt := range []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"zero answer", answer{}},
		{"full answer", full},
		{"pointer to answer", &full},
		{"empty slices", answer{Matches: []match{}, Listed: []string{}, Tags: map[string]int{}}},
		{"string", "a\"b"},
		{"ints", []any{int8(-8), uint64(math.MaxUint64), int64(math.MinInt64), uintptr(3)}},
		{"floats", []float32{0.1, 1e21, -0}},
		{"value marshaler", []valueMarshaler{{1}, {2}}},
		{"pointer marshaler", []ptrMarshaler{{1}}},
		{"pointer marshaler in a struct", struct{ P ptrMarshaler }{}},
		{"embedded", embedded{match: match{Path: "p"}, Extra: "e"}},
		{"embedded slice", []embedded{{match: match{Text: "t"}}, {}}},
		{"shadowed", shadowed{match: match{Path: "inner"}, Path: "outer"}},
		{"embedded pointer", embeddedPointer{&match{Path: "p"}}},
		{"embedded nil pointer", embeddedPointer{}},
		{"embedded unexported type", embeddedUnexported{unexportedInner{"a", "b"}, "c"}},
		{"string option", withString{N: 3}},
		{"duplicate names", dup{A: "a", X: "b"}},
		{"text keys", map[textKey]int{"b": 1, "a": 2}},
		{"named bytes", []json.RawMessage{json.RawMessage(`1`)}},
		{"nil pointer", (*answer)(nil)},
		{"interface nil in slice", []any{nil, (*match)(nil)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := stdJSON(tt.v)
			got, err := Append([]byte("prefix"), tt.v)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("Append error %v, encoding/json's %v", err, wantErr)
			}
			if wantErr != nil {
				return
			}
			if !bytes.HasPrefix(got, []byte("prefix")) {
				t.Fatalf("Append lost dst: %s", got)
			}
			if got := got[len("prefix"):]; !bytes.Equal(got, want) {
				t.Errorf("Append mismatch\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestAppendErrors(t *testing.T) {
	for _, v := range []any{
		math.NaN(),
		map[string]any{"f": func() {}},
		[]any{make(chan int)},
	} {
		if _, err := Append(nil, v); err == nil {
			t.Errorf("Append(%T) gave no error", v)
		}
	}
}

func TestAppendCycle(t *testing.T) {
	type loop struct {
		Next *loop `json:"next"`
	}
	l := &loop{}
	l.Next = l
	_, err := Append(nil, l)
	var unsupported *json.UnsupportedValueError
	if !errors.As(err, &unsupported) {
		t.Fatalf("Append of a cycle: %v, want encoding/json's UnsupportedValueError", err)
	}
}

func TestFast(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want bool
	}{
		{answer{}, true},
		{node{}, true},
		{embedded{}, true},
		{embeddedUnexported{}, true},
		{shadowed{}, false},
		{embeddedPointer{}, false},
		{withString{}, false},
		{dup{}, false},
		{ptrMarshaler{}, false},
		{map[textKey]int{}, true},
		{map[[2]int]int{}, false},
	} {
		if got := Fast(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("Fast(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

var jsonStrings = []string{
	"",
	"plain ascii",
	`quote " and backslash \ and slash /`,
	"\x00\x01\x1f\x7f controls \b\f\n\r\t",
	"<html> & ampersands",
	"héllo wörld 日本語 🎉",
	"line\u2028separator\u2029paragraph",
	"bad utf-8 \xff\xfe and cut \xe6\x97",
	"\x00grove-carry:0123456789abcdef0123456789abcdef\x00",
	strings.Repeat("abcdefg\x01", 9),
}

// AppendString must give encoding/json's bytes, for these strings and for
// random mixes of plain, special and multi-byte characters at every
// alignment of its eight-byte steps.
func TestAppendString(t *testing.T) {
	for _, s := range jsonStrings {
		checkString(t, s)
	}
	pieces := []string{"a", "bcdefgh", "\"", "\\", "\n", "\b", "\x01", "\x7f", "é", "日", "\u2028", "\xff", "\xe6\x97"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkString(t, b.String())
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

func checkString(t *testing.T, s string) {
	want, _ := stdJSON(s)
	if got := AppendString([]byte("x"), s); !bytes.Equal(got[1:], want) {
		t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got[1:], want)
	}
}

func FuzzAppend(f *testing.F) {
	f.Add("p", 3, "text", true, "k")
	f.Fuzz(func(t *testing.T, path string, line int, text string, cut bool, key string) {
		v := answer{Path: path, Matches: []match{{path, line, text}}, Cut: cut, Tags: map[string]int{key: line, text: 1},
			Any: []any{text, line}, Listed: []string{key}}
		want, _ := stdJSON(v)
		got, err := Append(nil, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Append = %s, %v; encoding/json %s", got, err, want)
		}
		if !utf8.Valid(got) {
			t.Errorf("Append gave invalid UTF-8: %q", got)
		}
	})
}

// Long arrays are encoded in two halves, the second by a helper goroutine.
func TestAppendSplitArrays(t *testing.T) {
	long := make([]match, 3*splitMin+1)
	for i := range long {
		long[i] = match{Path: fmt.Sprintf("dir/f%d.c", i%97), Line: i, Text: jsonStrings[i%len(jsonStrings)]}
	}
	nested := make([][]int, splitMin) // long arrays of short ones, and short of long ones
	for i := range nested {
		nested[i] = make([]int, i%3)
	}
	for i := range 4 {
		nested[i*splitMin/4] = make([]int, splitMin+i)
	}
	failing := make([]any, 2*splitMin)
	failing[len(failing)-1] = func() {}
	for _, tt := range []struct {
		name string
		v    any
	}{
		{"matches", answer{Matches: long}},
		{"arrays of long arrays", nested},
		{"error in the second half", failing},
		{"exactly splitMin", long[:splitMin]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := stdJSON(tt.v)
			got, err := Append(nil, tt.v)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("Append error %v, encoding/json's %v", err, wantErr)
			}
			if wantErr == nil && !bytes.Equal(got, want) {
				t.Errorf("Append mismatch: %d bytes, encoding/json %d", len(got), len(want))
			}
		})
	}
}

// Long strings are escaped in two halves, cut before an ASCII byte.
func TestAppendLongString(t *testing.T) {
	var mixed strings.Builder
	for i := 0; mixed.Len() < 2*splitStringMin; i++ {
		mixed.WriteString(jsonStrings[i%len(jsonStrings)])
	}
	for _, s := range []string{
		mixed.String(),
		strings.Repeat("日本語", splitStringMin/3+1) + "\"tail\"", // no ASCII until the end
		strings.Repeat("é", splitStringMin),                    // no ASCII at all
		strings.Repeat("\xe6", splitStringMin) + "a\xe6\x97b",  // invalid UTF-8 around the cut
		strings.Repeat("x", splitStringMin-1),                  // too short to cut
	} {
		want, _ := stdJSON(s)
		if got := AppendLongString([]byte("x"), s); !bytes.Equal(got[1:], want) {
			t.Errorf("AppendLongString of %d bytes (%.20q…) differs from encoding/json", len(s), s)
		}
	}
}

// selfEncoded counts its AppendJSON calls; its bytes are encoding/json's.
type selfEncoded struct{ N int }

var selfCalls int

func (s selfEncoded) AppendJSON(dst []byte) ([]byte, error) {
	selfCalls++
	return append(append(dst, `{"N":`...), fmt.Sprint(s.N)+"}"...), nil
}

// An Appender encodes itself wherever it is: at the top, in a field, behind
// a pointer (nil is null), in a slice and in an interface.
func TestAppender(t *testing.T) {
	type holder struct {
		One  selfEncoded   `json:"one"`
		Ptr  *selfEncoded  `json:"ptr"`
		Nil  *selfEncoded  `json:"nil"`
		Many []selfEncoded `json:"many"`
		Any  any           `json:"any"`
	}
	v := holder{One: selfEncoded{1}, Ptr: &selfEncoded{2}, Many: []selfEncoded{{3}, {4}}, Any: selfEncoded{5}}
	selfCalls = 0
	got, err := Append(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := stdJSON(v)
	if !bytes.Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if selfCalls != 5 {
		t.Errorf("AppendJSON called %d times, want 5", selfCalls)
	}
}

// AppendHalves gives the elements once each, in order, comma-separated,
// whether or not a helper takes the second half, and passes on an error.
func TestAppendHalves(t *testing.T) {
	for _, n := range []int{0, 1, splitMin - 1, splitMin, 3*splitMin + 1} {
		got, err := AppendHalves([]byte("["), n, func(dst []byte, from, to int) ([]byte, error) {
			for i := from; i < to; i++ {
				if i > from {
					dst = append(dst, ',')
				}
				dst = fmt.Append(dst, i)
			}
			return dst, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var back []int
		if err := json.Unmarshal(append(got, ']'), &back); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(back) != n {
			t.Fatalf("n=%d: %d elements", n, len(back))
		}
		for i, x := range back {
			if x != i {
				t.Fatalf("n=%d: element %d is %d", n, i, x)
			}
		}
	}
	boom := errors.New("boom")
	_, err := AppendHalves(nil, 2*splitMin, func(dst []byte, _, to int) ([]byte, error) {
		if to == 2*splitMin { // the second half, or the whole without a helper
			return dst, boom
		}
		return dst, nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("second half's error: got %v", err)
	}
}

// premade is a value that holds its JSON once.
type premade struct {
	N   int `json:"n"`
	pre *Handoff
}

func (p premade) TakeJSON() []byte { return p.pre.Take() }

// Marshal returns a Premarshaled value's own JSON while it holds it, then
// encodes the value.
func TestMarshalPremarshaled(t *testing.T) {
	v := premade{N: 1, pre: NewHandoff([]byte(`{"n":"made"}`))}
	if b, err := Marshal(v); err != nil || string(b) != `{"n":"made"}` {
		t.Fatalf("first Marshal: %s, %v", b, err)
	}
	if b, err := Marshal(v); err != nil || string(b) != `{"n":1}` {
		t.Fatalf("second Marshal: %s, %v", b, err)
	}
	if (*Handoff)(nil).Take() != nil {
		t.Fatal("a nil Handoff handed something out")
	}
}
