package transport

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrMessageTooLarge is matched (errors.Is) by the error a transport reports
// for a message over its size limit. The message is skipped and the
// connection goes on: a client's call whose answer was too large fails with
// an error matching it (and ErrTransport); a server answers a request that
// was too large with CodeInvalidRequest.
var ErrMessageTooLarge = errors.New("transport: message exceeds the size limit")

// DefaultClientMaxMessageSize is the largest message, in bytes, that the
// client transports (Command, the HTTP clients) accept from a server unless
// configured otherwise: 64 MiB. A client reads from a server it chose to
// connect to, whose results (a file read, an image, a long listing) can
// legitimately be large; the TypeScript SDK's client has no limit at all.
// The limit only bounds the memory one message can take, which 64 MiB keeps
// affordable for a desktop host talking to several servers.
const DefaultClientMaxMessageSize = 64 << 20

// tooLarge returns the *protocol.DecodeError for a message over limit
// bytes, with what the scan of its bytes recovered.
func (sc *topScan) tooLarge(limit int) *protocol.DecodeError {
	id, method := sc.result()
	return &protocol.DecodeError{
		ID:         id,
		Err:        protocol.Errorf(protocol.CodeInvalidRequest, "Invalid Request: message exceeds the %d-byte limit", limit),
		Cause:      fmt.Errorf("%w (%d bytes)", ErrMessageTooLarge, limit),
		NotRequest: !method && sc.object,
	}
}

// topScan follows the JSON text of a message too large to keep, byte by
// byte, in bounded memory: it tracks nesting and strings, and keeps the
// top-level "id" value and whether a top-level "method" member is present,
// so that the message can still be answered or matched to its call. It
// does not validate the text; a malformed message just yields no id.
type topScan struct {
	depth   int
	inStr   bool
	esc     bool
	object  bool // the text starts with '{'
	started bool

	wantKey bool   // at depth 1, the next string is a member name
	inKey   bool   // reading a member name
	key     []byte // the member name read, raw with its quotes (bounded)
	keyOver bool

	inID   bool   // reading the top-level "id" value
	id     []byte // its raw text (bounded)
	idOver bool
	idSeen int // how many top-level "id" members were seen

	method bool
}

// maxScanKey and maxScanID bound what topScan keeps.
const (
	maxScanKey = 64
	maxScanID  = 256
)

// reset prepares sc for a new message, keeping its buffers.
func (sc *topScan) reset() {
	*sc = topScan{key: sc.key[:0], id: sc.id[:0]}
}

// write follows p, the next bytes of the message.
func (sc *topScan) write(p []byte) {
	for _, c := range p {
		sc.step(c)
	}
}

func (sc *topScan) step(c byte) {
	if sc.inID && !(sc.depth == 1 && !sc.inStr && (c == ',' || c == '}')) {
		if len(sc.id) < maxScanID {
			sc.id = append(sc.id, c)
		} else {
			sc.idOver = true
		}
	}
	if sc.inStr {
		if sc.inKey {
			if len(sc.key) < maxScanKey {
				sc.key = append(sc.key, c)
			} else {
				sc.keyOver = true
			}
		}
		switch {
		case sc.esc:
			sc.esc = false
		case c == '\\':
			sc.esc = true
		case c == '"':
			sc.inStr, sc.inKey = false, false
		}
		return
	}
	switch c {
	case ' ', '\t', '\n', '\r':
		return
	case '"':
		sc.inStr = true
		if sc.depth == 1 && sc.wantKey {
			sc.inKey, sc.wantKey, sc.keyOver = true, false, false
			sc.key = append(sc.key[:0], c)
		}
	case '{', '[':
		if !sc.started {
			sc.object = c == '{'
		}
		sc.depth++
		if sc.depth == 1 && c == '{' {
			sc.wantKey = true
		}
	case '}', ']':
		if sc.depth == 1 {
			sc.inID = false
		}
		sc.depth--
	case ':':
		if sc.depth == 1 && !sc.keyOver && len(sc.key) > 0 {
			switch name, err := jsontext.AppendUnquote(nil, sc.key); {
			case err != nil:
			case string(name) == "id":
				sc.inID, sc.idSeen = true, sc.idSeen+1
				sc.id, sc.idOver = sc.id[:0], false
			case string(name) == "method":
				sc.method = true
			}
		}
		sc.key = sc.key[:0]
	case ',':
		if sc.depth == 1 {
			sc.inID = false
			sc.wantKey = true
		}
	}
	sc.started = true
}

// result returns the top-level id, when one was found and is valid, and
// whether the message has a top-level "method" member.
func (sc *topScan) result() (protocol.ID, bool) {
	var id protocol.ID
	if sc.object && sc.idSeen == 1 && !sc.idOver {
		if raw := bytes.TrimSpace(sc.id); len(raw) > 0 && string(raw) != "null" {
			if v, err := protocol.ParseID(raw); err == nil {
				id = v
			}
		}
	}
	return id, sc.method
}
