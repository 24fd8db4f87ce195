package main

import (
	"fmt"
	"strconv"
)

// protocolVersion is the revision the driver asks for; it speaks whatever
// the server answers with.
const protocolVersion = "2025-11-25"

// firstCallID is the id of a load's first tools/call; ids below it are
// for the lifecycle.
const firstCallID = 100

func initRequest(id int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}`+"\n", id, protocolVersion)
}

var initializedNote = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

func listRequest(id int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", id)
}

// appendCall appends call id of add: a = id, b = 1, so the answer to id is
// id+1 (see wantSum).
func appendCall(dst []byte, id int) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	dst = append(dst, `,"method":"tools/call","params":{"name":"add","arguments":{"a":`...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	return append(dst, `,"b":1}}}`+"\n"...)
}

// wantSum is the sum that call id must answer.
func wantSum(id int) int { return id + 1 }
