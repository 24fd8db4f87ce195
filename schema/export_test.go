package schema

import (
	"encoding/json"
	"reflect"
)

// MirroredRules exposes the list of mirrored validate rules to the
// agreement test, which checks that each one is covered.
var MirroredRules = mirroredRules

// ReflectedTreeMismatch reflects t as For does and returns the two
// encodings of the reflected schema, by the direct conversion and by the
// encoding/json round trip; both are "" when the direct conversion
// declines.
func ReflectedTreeMismatch(t reflect.Type, opts Options) (direct, roundTrip string, err error) {
	st := t
	for st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	a := &analyzer{root: t, plans: map[reflect.Type]*plan{}, strict: opts.Strict}
	root := a.analyze(st, st.Name())
	if a.err != nil {
		return "", "", a.err
	}
	s := newReflector(defNames(a.plans), opts.KeepRefs || a.recursive).ReflectFromType(root.t)
	s.Version = ""
	tree, ok := reflectedTree(s)
	if !ok {
		return "", "", nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return "", "", err
	}
	want, err := parseTree(raw)
	if err != nil {
		return "", "", err
	}
	return string(encodeTree(tree)), string(encodeTree(want)), nil
}
