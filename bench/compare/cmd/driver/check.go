package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The checks. Every answer gets the fast check (its id, its structured
// sum, no isError); every fullEvery-th answer, and the first ones of each
// load, are decoded whole and checked field by field, so that no row
// measures an error path.

const fullEvery = 64

// message is what the full check decodes.
type message struct {
	ID     *int            `json:"id"`
	Error  json.RawMessage `json:"error"`
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent struct {
			Result *int `json:"result"`
		} `json:"structuredContent"`
		IsError         bool            `json:"isError"`
		ProtocolVersion string          `json:"protocolVersion"`
		Tools           json.RawMessage `json:"tools"`
	} `json:"result"`
}

// payload returns the JSON-RPC message of a response body: the body
// itself, or the data of the SSE event that carries an id.
func payload(body []byte) []byte {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '{' {
		return body
	}
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok && bytes.Contains(data, []byte(`"id"`)) {
			return bytes.TrimSpace(data)
		}
	}
	return body
}

// decode decodes msg and checks it is a result for id.
func decode(msg []byte, id int) (*message, error) {
	var m message
	if err := json.Unmarshal(payload(msg), &m); err != nil {
		return nil, fmt.Errorf("answer to %d is not JSON-RPC: %w: %.200s", id, err, msg)
	}
	switch {
	case m.ID == nil || *m.ID != id:
		return nil, fmt.Errorf("answer to %d has another id: %.200s", id, msg)
	case m.Error != nil || m.Result == nil:
		return nil, fmt.Errorf("answer to %d is an error: %.200s", id, msg)
	}
	return &m, nil
}

// checkFull checks the whole answer to call id.
func checkFull(msg []byte, id int) error {
	m, err := decode(msg, id)
	if err != nil {
		return err
	}
	r, want := m.Result, wantSum(id)
	switch {
	case r.IsError:
		return fmt.Errorf("call %d failed: %.200s", id, msg)
	case r.StructuredContent.Result == nil || *r.StructuredContent.Result != want:
		return fmt.Errorf("call %d: structured content is not {\"result\":%d}: %.200s", id, want, msg)
	case len(r.Content) != 1 || r.Content[0].Type != "text" || !strings.Contains(r.Content[0].Text, strconv.Itoa(want)):
		return fmt.Errorf("call %d: text content does not hold %d: %.200s", id, want, msg)
	}
	return nil
}

// check checks the answer to call id, in full when full is set.
func check(msg []byte, id int, full bool) error {
	if full {
		return checkFull(msg, id)
	}
	got, ok := idOf(msg)
	if !ok || got != id {
		return checkFull(msg, id) // says what is wrong
	}
	want := strconv.AppendInt([]byte(`"result":`), int64(wantSum(id)), 10)
	i := bytes.Index(msg, want)
	if i < 0 || bytes.Contains(msg, []byte(`"isError":true`)) {
		return checkFull(msg, id)
	}
	if j := i + len(want); j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
		return checkFull(msg, id)
	}
	return nil
}

// idOf returns the integer id of a response without decoding it.
func idOf(msg []byte) (int, bool) {
	i := bytes.Index(msg, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	rest := msg[i+len(`"id":`):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	id, err := strconv.Atoi(string(rest[:n]))
	return id, err == nil
}

// checkInit checks an initialize answer and returns the revision the
// server chose.
func checkInit(msg []byte, id int) (string, error) {
	m, err := decode(msg, id)
	if err != nil {
		return "", err
	}
	if m.Result.ProtocolVersion == "" {
		return "", fmt.Errorf("initialize answer has no protocolVersion: %.200s", msg)
	}
	return m.Result.ProtocolVersion, nil
}

// checkList checks that a tools/list answer lists n tools.
func checkList(msg []byte, id, n int) error {
	m, err := decode(msg, id)
	if err != nil {
		return err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(m.Result.Tools, &tools); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if len(tools) != n {
		return fmt.Errorf("tools/list lists %d tools, want %d", len(tools), n)
	}
	return nil
}

// checkRejected checks that a call with b < 0 was refused, as a tool
// error or a JSON-RPC error.
func checkRejected(msg []byte, id int) error {
	var m message
	if err := json.Unmarshal(payload(msg), &m); err != nil {
		return fmt.Errorf("answer to %d is not JSON-RPC: %w", id, err)
	}
	if m.Error != nil || (m.Result != nil && m.Result.IsError) {
		return nil
	}
	return errors.New("add accepted b = -1: the tool is not validated")
}
