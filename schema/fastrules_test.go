package schema

import (
	"math"
	"reflect"
	"testing"
)

// Argument types whose rules the direct check handles.
type fastArgs struct {
	Name  string  `json:"name" validate:"required,min=2,max=5"`
	Code  string  `json:"code" validate:"omitempty,len=3"`
	N     int     `json:"n" validate:"gte=-3,lte=0x10"`
	M     int8    `json:"m" validate:"gt=-1,lt=100"`
	U     uint16  `json:"u" validate:"omitempty,min=2,max=9"`
	F     float64 `json:"f" validate:"gt=0.5,lte=2.5"`
	G     float32 `json:"g" validate:"omitempty,gte=0.1"`
	L     int64   `json:"l" validate:"len=7"`
	R     uint    `json:"r" validate:"required"`
	Plain bool    `json:"plain"`
	List  []int   `json:"list"`
}

// Types the validator must handle itself.
type (
	slowNested struct {
		In fastArgs `json:"in"`
	}
	slowOr struct {
		S string `json:"s" validate:"min=1|len=0"`
	}
	slowOneof struct {
		S string `json:"s" validate:"oneof=a b"`
	}
	slowLateOmit struct {
		N int `json:"n" validate:"gte=1,omitempty"`
	}
	slowPtr struct {
		P *int `json:"p" validate:"omitempty,gte=1"`
	}
)

func TestFastRulesEligibility(t *testing.T) {
	t.Parallel()
	if newFastRules(reflect.TypeFor[fastArgs]()) == nil {
		t.Error("fastArgs: no direct check")
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[slowNested](), reflect.TypeFor[slowOr](), reflect.TypeFor[slowOneof](),
		reflect.TypeFor[slowLateOmit](), reflect.TypeFor[slowPtr](),
	} {
		if newFastRules(typ) != nil {
			t.Errorf("%v: a direct check, want the validator", typ)
		}
	}
}

// FuzzFastRulesAgreeWithValidator checks the direct check's verdict
// against the validator's on arbitrary values.
func FuzzFastRulesAgreeWithValidator(f *testing.F) {
	f.Add("ab", "", int64(0), int64(5), uint64(0), 1.0, 0.0, int64(7), uint64(1))
	f.Add("abcdef", "xyz", int64(-4), int64(-1), uint64(3), 0.5, 0.05, int64(8), uint64(0))
	f.Add("ééé", "日本語", int64(16), int64(99), uint64(9), math.NaN(), math.Inf(1), int64(7), uint64(2))
	f.Add("", "ab", int64(17), int64(100), uint64(1), 2.5, math.Copysign(0, -1), int64(-7), uint64(1))
	fr := newFastRules(reflect.TypeFor[fastArgs]())
	f.Fuzz(func(t *testing.T, name, code string, n, m int64, u uint64, fl, g float64, l int64, r uint64) {
		v := fastArgs{Name: name, Code: code, N: int(n), M: int8(m), U: uint16(u), F: fl, G: float32(g), L: l, R: uint(r)}
		want := validate().Struct(&v) == nil
		if got := fr.accepts(reflect.ValueOf(v)); got != want {
			t.Fatalf("%+v: direct check says %v, validator %v", v, got, want)
		}
	})
}

// TestFastZeroCheckAgreesWithValidator checks the direct answer the
// analyzer uses for "does the zero value fail these rules" (which makes a
// field required) against the validator's, for every field of fastArgs
// and a few more tags.
func TestFastZeroCheckAgreesWithValidator(t *testing.T) {
	type tc struct {
		typ reflect.Type
		tag string
	}
	var cases []tc
	st := reflect.TypeFor[fastArgs]()
	for i := range st.NumField() {
		if tag := st.Field(i).Tag.Get("validate"); tag != "" {
			cases = append(cases, tc{st.Field(i).Type, tag})
		}
	}
	for _, tag := range []string{"min=0", "min=1", "omitempty,min=1", "max=0", "lt=0", "gt=0", "len=0", "len=1", "gte=-1,lte=1", "required"} {
		for _, typ := range []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[uint8](), reflect.TypeFor[float32]()} {
			cases = append(cases, tc{typ, tag})
		}
	}
	for _, c := range cases {
		ff, ok := newFastField(0, c.typ, c.tag)
		if !ok {
			continue // the analyzer asks the validator
		}
		fast := !ff.accepts(reflect.Zero(c.typ))
		want := validate().Var(reflect.Zero(c.typ).Interface(), c.tag) != nil
		if fast != want {
			t.Errorf("%s %q: zero fails %v directly, %v by the validator", c.typ, c.tag, fast, want)
		}
	}
}

// TestFastRulesReuseAnalysis checks that the direct checks built from the
// analyzer's work equal those built from the struct's tags alone.
func TestFastRulesReuseAnalysis(t *testing.T) {
	for _, st := range []reflect.Type{
		reflect.TypeFor[fastArgs](), reflect.TypeFor[slowNested](), reflect.TypeFor[slowOr](),
		reflect.TypeFor[slowOneof](), reflect.TypeFor[slowLateOmit](), reflect.TypeFor[slowPtr](),
		reflect.TypeFor[struct {
			A string `json:"a" validate:"required,min=1"`
			b int
			C int `json:"-"`
			D int `json:"d,omitempty" validate:"omitempty,gte=1"`
			E int `json:"e" validate:"-"`
		}](),
	} {
		a := &analyzer{root: st, plans: map[reflect.Type]*plan{}}
		p := a.analyze(st, st.Name())
		if got, want := newFastRulesFor(st, p), newFastRules(st); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from the analysis %+v, from the tags %+v", st, got, want)
		}
	}
}
