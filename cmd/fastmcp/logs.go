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
	var text string
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		text = s
	} else {
		text = string(compactJSON(p.Data))
	}
	prefix := "[" + string(p.Level) + "] "
	if p.Logger != "" {
		prefix += p.Logger + ": "
	}
	a.status().line(prefix + text)
}
