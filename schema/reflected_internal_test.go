package schema

import (
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
)

// TestIsEmptySchemaCoversEveryField checks isEmptySchema against
// reflect.DeepEqual with the zero Schema, one non-zero field at a time, so
// that a field added to invopop's Schema cannot go unnoticed.
func TestIsEmptySchemaCoversEveryField(t *testing.T) {
	t.Parallel()
	if !isEmptySchema(&jsonschema.Schema{}) {
		t.Fatal("the zero Schema is not empty")
	}
	if isEmptySchema(jsonschema.TrueSchema) || isEmptySchema(jsonschema.FalseSchema) {
		t.Fatal("a boolean schema is empty")
	}
	st := reflect.TypeFor[jsonschema.Schema]()
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		s := &jsonschema.Schema{}
		v := reflect.ValueOf(s).Elem().Field(i)
		switch v.Kind() {
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // empty but not nil: DeepEqual tells them apart
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.Interface:
			v.Set(reflect.ValueOf(0))
		case reflect.String:
			v.SetString("x")
		case reflect.Bool:
			v.SetBool(true)
		default:
			t.Fatalf("field %s has kind %s: teach this test and isEmptySchema about it", f.Name, v.Kind())
		}
		if want := reflect.DeepEqual(&jsonschema.Schema{}, s); isEmptySchema(s) != want {
			t.Errorf("with %s set, isEmptySchema = %v, DeepEqual says %v", f.Name, !want, want)
		}
	}
}
