package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
)

var logLevels = []protocol.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// logLevel checks the --log-level value.
func logLevel(s string) (protocol.LoggingLevel, error) {
	for _, l := range logLevels {
		if string(l) == strings.ToLower(s) {
			return l, nil
		}
	}
	names := make([]string, len(logLevels))
	for i, l := range logLevels {
		names[i] = string(l)
	}
	return "", usage(fmt.Errorf("--log-level %q: want one of %s", s, strings.Join(names, ", ")))
}

// printLog prints a log message from the server on stderr:
// "[warning] logger: text". A string is printed as it is, any other JSON
// value compactly.
func (a *app) printLog(p *protocol.LoggingMessageParams) {
	text := logText(p.Data)
	prefix := "[" + string(p.Level) + "] "
	if p.Logger != "" {
		prefix += p.Logger + ": "
	}
	a.status().line(prefix + text)
}

// logText is a log message's data as text: a string as it is; an object
// with a "msg" string (as slog-style servers send) as the message followed
// by its other members as key=value; any other JSON compactly.
func logText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	var obj map[string]json.RawMessage
	keys, kerr := objectKeys(data)
	if kerr != nil || json.Unmarshal(data, &obj) != nil || json.Unmarshal(obj["msg"], &s) != nil {
		return string(compactJSON(data))
	}
	parts := []string{s}
	for _, k := range keys {
		if k == "msg" {
			continue
		}
		v := string(compactJSON(obj[k]))
		var str string
		if json.Unmarshal(obj[k], &str) == nil && str != "" && !strings.ContainsAny(str, " \t\n\"=") {
			v = str
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}
