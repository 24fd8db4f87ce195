package protocol

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// flatSeeds are values flatValid accepts and values it must leave to the
// full check.
var flatSeeds = []string{
	`{}`, `{"result":42}`, `{"result":-0.5e+10}`, `{"a":"x","b":true,"c":false,"d":null}`,
	`{"a":1,"a":2}`, `{"a":01}`, `{"a":1.}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`, `{"a":.5}`,
	`{"a":tru}`, `{"a":"x}`, `{"a":1,}`, `{"a":1}x`, `{"a":1}}`, `{"a"}`, `{"a":}`, `{,}`, `{`, `}`,
	`{"a":{"b":1}}`, `{"a":[1]}`, `{"é":1}`, `{"a":"\n"}`, `[1]`, `1`, `""`, `{"a":1 }`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}`,
}

// FuzzFlatValid checks that flatValid accepts only valid JSON.
func FuzzFlatValid(f *testing.F) {
	for _, s := range flatSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if flatValid([]byte(s)) && !jsontext.Value(s).IsValid() {
			t.Fatalf("flatValid accepts invalid %q", s)
		}
	})
}

func TestFlatValid(t *testing.T) {
	t.Parallel()
	for _, s := range []string{`{}`, `{"result":42}`, `{"result":-0.5e+10}`, `{"a":"x","b":true,"c":false,"d":null}`, `{"result":0}`} {
		if !flatValid([]byte(s)) {
			t.Errorf("flatValid(%s) = false, want true", s)
		}
	}
}
