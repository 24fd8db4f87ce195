package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// EventStoreOptions configures an EventStore. The zero value takes the
// defaults.
type EventStoreOptions struct {
	// Prefix starts every key the store writes. Default DefaultPrefix.
	Prefix string
	// MaxEvents bounds the events kept per session; the oldest are
	// discarded first. Zero means 1024, as transport.MemoryEventStore.
	MaxEvents int
	// MaxBytes bounds the bytes of event data kept per session; the oldest
	// events are discarded first (the newest event is always kept). Zero
	// means 8 MiB, as transport.MemoryEventStore.
	MaxBytes int
	// TTL is how long a session's events are kept after its last event
	// was appended, so that the log of a session whose replica died (and
	// never called DeleteSession) does not stay in Redis forever. Zero
	// means one hour; it should exceed the server's SessionIdleTimeout.
	TTL time.Duration
}

// EventStore is a store.EventStore in Redis, so that a client may
// resume a stream on any replica. It keeps the semantics and bounds of
// transport.MemoryEventStore: MaxEvents and MaxBytes per session, the
// oldest events discarded first, ErrEventsLost for a replay that needs a
// discarded event (remembered for the streams of the last MaxEvents
// discards). Each Append is one atomic script; a session's keys share a
// hash tag, so the store works on Redis Cluster.
type EventStore struct {
	rdb       redis.UniversalClient
	prefix    string
	maxEvents int
	maxBytes  int
	ttl       time.Duration
}

var _ store.SequencedEventStore = (*EventStore)(nil)

// NewEventStore returns an EventStore using rdb. opts may be nil.
func NewEventStore(rdb redis.UniversalClient, opts *EventStoreOptions) *EventStore {
	s := &EventStore{rdb: rdb, prefix: DefaultPrefix, maxEvents: 1024, maxBytes: 8 << 20, ttl: time.Hour}
	if opts != nil {
		if opts.Prefix != "" {
			s.prefix = opts.Prefix
		}
		if opts.MaxEvents > 0 {
			s.maxEvents = opts.MaxEvents
		}
		if opts.MaxBytes > 0 {
			s.maxBytes = opts.MaxBytes
		}
		if opts.TTL > 0 {
			s.ttl = opts.TTL
		}
	}
	return s
}

// keys returns the session's keys: the event log (a list, oldest first),
// its byte count, the highest discarded seq per stream (a hash), the
// recent discards (a list) bounding that hash, and the last seq of each
// stream numbered by AppendNext (a hash).
func (s *EventStore) keys(session string) []string {
	base := s.prefix + "ev:{" + session + "}:"
	return []string{base + "log", base + "bytes", base + "lost", base + "lostorder", base + "seq"}
}

// encodeEvent packs an event as "<len(stream)>:<stream><seq>:<data>", a
// form the scripts can take apart whatever bytes the stream name holds.
func encodeEvent(stream string, seq int64, data []byte) string {
	var b strings.Builder
	b.Grow(len(stream) + len(data) + 24)
	b.WriteString(strconv.Itoa(len(stream)))
	b.WriteByte(':')
	b.WriteString(stream)
	b.WriteString(strconv.FormatInt(seq, 10))
	b.WriteByte(':')
	b.Write(data)
	return b.String()
}

var errBadEvent = errors.New("redisstore: malformed event in the log")

func decodeEvent(e string) (stream string, seq int64, data string, err error) {
	i := strings.IndexByte(e, ':')
	if i < 0 {
		return "", 0, "", errBadEvent
	}
	n, err := strconv.Atoi(e[:i])
	if err != nil || n < 0 || i+1+n > len(e) {
		return "", 0, "", errBadEvent
	}
	stream, rest := e[i+1:i+1+n], e[i+1+n:]
	j := strings.IndexByte(rest, ':')
	if j < 0 {
		return "", 0, "", errBadEvent
	}
	if seq, err = strconv.ParseInt(rest[:j], 10, 64); err != nil {
		return "", 0, "", errBadEvent
	}
	return stream, seq, rest[j+1:], nil
}

// appendScript appends ARGV[1] (an encoded event of ARGV[2] data bytes)
// to the log, discards the oldest events beyond ARGV[3] events or ARGV[4]
// bytes (keeping the newest), records the discards as
// MemoryEventStore does, and sets the keys to expire in ARGV[5] ms.
var appendScript = redis.NewScript(appendHead + "local ev = ARGV[1]\n" + appendBody + "return live\n")

// appendNextScript is appendScript for an event of stream ARGV[1] with
// data ARGV[6], numbered one past the stream's last (KEYS[5]); it
// returns the number.
var appendNextScript = redis.NewScript(appendHead + `
local seq = redis.call('HINCRBY', KEYS[5], ARGV[1], 1)
local ev = string.len(ARGV[1]) .. ':' .. ARGV[1] .. seq .. ':' .. ARGV[6]
` + appendBody + "return seq\n")

const appendHead = `
local log, bytesKey, lost, order = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local maxE, maxB, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
`

const appendBody = `
local function parse(e)
  local c = string.find(e, ':', 1, true)
  local n = tonumber(string.sub(e, 1, c - 1))
  local stream = string.sub(e, c + 1, c + n)
  local c2 = string.find(e, ':', c + n + 1, true)
  return stream, tonumber(string.sub(e, c + n + 1, c2 - 1)), #e - c2
end
local live = redis.call('RPUSH', log, ev)
local bytes = redis.call('INCRBY', bytesKey, tonumber(ARGV[2]))
while live > 1 and (live > maxE or bytes > maxB) do
  local stream, seq, dlen = parse(redis.call('LPOP', log))
  bytes = redis.call('INCRBY', bytesKey, -dlen)
  live = live - 1
  local cur = tonumber(redis.call('HGET', lost, stream) or '0')
  if seq > cur then redis.call('HSET', lost, stream, seq) end
  if redis.call('RPUSH', order, string.len(stream) .. ':' .. stream .. seq .. ':') > maxE then
    local ostream, oseq = parse(redis.call('LPOP', order))
    if tonumber(redis.call('HGET', lost, ostream) or '0') == oseq then
      redis.call('HDEL', lost, ostream)
    end
  end
end
for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, ttl) end
`

// Append implements store.EventStore.
func (s *EventStore) Append(ctx context.Context, session, stream string, seq int64, data []byte) error {
	err := appendScript.Run(ctx, s.rdb, s.keys(session),
		encodeEvent(stream, seq, data), len(data), s.maxEvents, s.maxBytes, s.ttl.Milliseconds()).Err()
	if err != nil {
		return fmt.Errorf("%w: append event: %w", ErrRedis, err)
	}
	return nil
}

// AppendNext implements store.SequencedEventStore: the number comes
// from a counter of the stream's in Redis, incremented in the script that
// appends the event.
func (s *EventStore) AppendNext(ctx context.Context, session, stream string, data []byte) (int64, error) {
	seq, err := appendNextScript.Run(ctx, s.rdb, s.keys(session),
		stream, len(data), s.maxEvents, s.maxBytes, s.ttl.Milliseconds(), data).Int64()
	if err != nil {
		return 0, fmt.Errorf("%w: append event: %w", ErrRedis, err)
	}
	return seq, nil
}

// replayScript returns false when an event of stream ARGV[1] after seq
// ARGV[2] was discarded, else the stored events of that stream after it,
// oldest first, so that only those cross the network.
var replayScript = redis.NewScript(`
local log, lost = KEYS[1], KEYS[2]
local stream, after = ARGV[1], tonumber(ARGV[2])
if tonumber(redis.call('HGET', lost, stream) or '0') > after then return false end
local out = {}
for _, e in ipairs(redis.call('LRANGE', log, 0, -1)) do
  local c = string.find(e, ':', 1, true)
  local n = tonumber(string.sub(e, 1, c - 1))
  if string.sub(e, c + 1, c + n) == stream then
    local c2 = string.find(e, ':', c + n + 1, true)
    if tonumber(string.sub(e, c + n + 1, c2 - 1)) > after then out[#out + 1] = e end
  end
end
return out
`)

// Replay implements store.EventStore. The events are selected in
// Redis, in one script, and fn is called once they have all arrived.
func (s *EventStore) Replay(ctx context.Context, session, stream string, after int64, fn func(seq int64, data []byte) error) error {
	keys := s.keys(session)
	res, err := replayScript.Run(ctx, s.rdb, []string{keys[0], keys[2]}, stream, after).StringSlice()
	if errors.Is(err, redis.Nil) {
		return store.ErrEventsLost
	}
	if err != nil {
		return fmt.Errorf("%w: replay events: %w", ErrRedis, err)
	}
	for _, e := range res {
		_, seq, data, err := decodeEvent(e)
		if err != nil {
			return fmt.Errorf("replay events of session %q: %w", session, err)
		}
		if err := fn(seq, []byte(data)); err != nil {
			return err
		}
	}
	return nil
}

// DeleteSession implements store.EventStore.
func (s *EventStore) DeleteSession(ctx context.Context, session string) error {
	if err := s.rdb.Del(ctx, s.keys(session)...).Err(); err != nil {
		return fmt.Errorf("%w: delete session events: %w", ErrRedis, err)
	}
	return nil
}
