package fastmcp

import (
	"math"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestAppendBasicMatchesMarshal checks the fast encoding of integer and
// boolean results against protocol.Marshal, and that it declines other
// types.
func TestAppendBasicMatchesMarshal(t *testing.T) {
	t.Parallel()
	type level int // a named type: it could marshal itself, so it is declined
	for _, v := range []any{
		0, -1, math.MaxInt, math.MinInt, int8(math.MinInt8), int16(math.MaxInt16), int32(math.MinInt32), int64(math.MaxInt64),
		uint(math.MaxUint), uint8(255), uint16(7), uint32(math.MaxUint32), uint64(math.MaxUint64), true, false,
	} {
		want, err := protocol.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendBasic(nil, reflect.ValueOf(v))
		if !ok || string(got) != string(want) {
			t.Errorf("appendBasic(%T %v) = %s, %v; want %s", v, v, got, ok, want)
		}
	}
	for _, v := range []any{1.5, float32(2), "s", level(3), uintptr(1), []int{1}} {
		if got, ok := appendBasic(nil, reflect.ValueOf(v)); ok {
			t.Errorf("appendBasic(%T %v) = %s, want it declined", v, v, got)
		}
	}
}
