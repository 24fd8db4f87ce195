package protocol

import (
	"encoding/json"
)

// LoggingLevel is the severity of a log message, one of the eight syslog
// severities of RFC 5424 (deprecated with logging in 2026-07-28). The zero
// LoggingLevel is not a valid level.
type LoggingLevel string

// Logging levels, from least to most severe.
const (
	LevelDebug     LoggingLevel = "debug"
	LevelInfo      LoggingLevel = "info"
	LevelNotice    LoggingLevel = "notice"
	LevelWarning   LoggingLevel = "warning"
	LevelError     LoggingLevel = "error"
	LevelCritical  LoggingLevel = "critical"
	LevelAlert     LoggingLevel = "alert"
	LevelEmergency LoggingLevel = "emergency"
)

// Severity returns the level's rank: 0 for debug up to 7 for emergency, or
// -1 for an invalid level.
func (l LoggingLevel) Severity() int {
	switch l {
	case LevelDebug:
		return 0
	case LevelInfo:
		return 1
	case LevelNotice:
		return 2
	case LevelWarning:
		return 3
	case LevelError:
		return 4
	case LevelCritical:
		return 5
	case LevelAlert:
		return 6
	case LevelEmergency:
		return 7
	default:
		return -1
	}
}

// IsValid reports whether l is one of the eight levels. A request with an
// invalid level is answered with [ErrInvalidParams].
func (l LoggingLevel) IsValid() bool { return l.Severity() >= 0 }

// AtLeast reports whether l is at least as severe as min, that is whether a
// message at level l passes a minimum level of min. It is false when either
// level is invalid.
func (l LoggingLevel) AtLeast(min LoggingLevel) bool {
	s, m := l.Severity(), min.Severity()
	return s >= 0 && m >= 0 && s >= m
}

// SetLevelParams are the params of logging/setLevel
// (2024-11-05 to 2025-11-25; replaced by [MetaLogLevel] in 2026-07-28).
type SetLevelParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the minimum level of the messages the client wants.
	Level LoggingLevel `json:"level"`
}

// LoggingMessageParams are the params of notifications/message, a log
// message from the server (deprecated in 2026-07-28).
type LoggingMessageParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the message's severity.
	Level LoggingLevel `json:"level"`
	// Logger names the logger that issued the message.
	Logger string `json:"logger,omitzero"`
	// Data is the message: any JSON value, such as a string or an object.
	// Nil encodes as null.
	Data json.RawMessage `json:"data"`
}
