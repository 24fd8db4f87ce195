package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/transport"
)

// SessionStoreOptions configures a SessionStore. The zero value takes the
// defaults.
type SessionStoreOptions struct {
	// Prefix starts every key the store writes. Default DefaultPrefix.
	Prefix string
}

// SessionStore is a transport.SessionStore in Redis: the records of the
// legacy sessions that every replica of a server may serve
// (transport.HTTPOptions.Sessions). A record is one hash, which Redis
// expires TTL after the session's last refresh; each operation is one
// atomic command, transaction or script.
type SessionStore struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ transport.SessionStore = (*SessionStore)(nil)

// NewSessionStore returns a SessionStore using rdb. opts may be nil.
func NewSessionStore(rdb redis.UniversalClient, opts *SessionStoreOptions) *SessionStore {
	s := &SessionStore{rdb: rdb, prefix: DefaultPrefix}
	if opts != nil && opts.Prefix != "" {
		s.prefix = opts.Prefix
	}
	return s
}

func (s *SessionStore) key(id string) string { return s.prefix + "session:{" + id + "}" }

// Fields of a record's hash.
const (
	fieldPrincipal  = "principal"
	fieldVersion    = "version"
	fieldParams     = "params"
	fieldLevel      = "level"
	fieldCreated    = "created"    // Unix milliseconds
	fieldLastActive = "lastActive" // Unix milliseconds
)

func millis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// Create implements transport.SessionStore.
func (s *SessionStore) Create(ctx context.Context, rec *transport.SessionRecord, ttl time.Duration) error {
	k := s.key(rec.ID)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		p.HSet(ctx, k,
			fieldPrincipal, rec.Principal,
			fieldVersion, rec.Version,
			fieldParams, []byte(rec.InitializeParams),
			fieldLevel, rec.LogLevel,
			fieldCreated, millis(rec.Created),
			fieldLastActive, millis(rec.LastActive))
		if ttl > 0 {
			p.PExpire(ctx, k, ttl)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: create session record: %w", ErrRedis, err)
	}
	return nil
}

// Get implements transport.SessionStore.
func (s *SessionStore) Get(ctx context.Context, id string) (*transport.SessionRecord, error) {
	m, err := s.rdb.HGetAll(ctx, s.key(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: read session record: %w", ErrRedis, err)
	}
	if len(m) == 0 {
		return nil, transport.ErrSessionUnknown
	}
	rec := &transport.SessionRecord{
		ID:        id,
		Principal: m[fieldPrincipal],
		Version:   m[fieldVersion],
		LogLevel:  m[fieldLevel],
	}
	if p := m[fieldParams]; p != "" {
		rec.InitializeParams = []byte(p)
	}
	rec.Created = fromMillis(m[fieldCreated])
	rec.LastActive = fromMillis(m[fieldLastActive])
	return rec, nil
}

func fromMillis(v string) time.Time {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

// updateScript sets field ARGV[1] of the record KEYS[1] to ARGV[2] and,
// when ARGV[3] is not empty, its expiry to ARGV[3] ms from now (0: none);
// it returns 0 when there is no record.
var updateScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then
  local ttl = tonumber(ARGV[3])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
end
return 1
`)

func (s *SessionStore) update(ctx context.Context, id, field, value, ttl, what string) error {
	n, err := updateScript.Run(ctx, s.rdb, []string{s.key(id)}, field, value, ttl).Int()
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRedis, what, err)
	}
	if n == 0 {
		return transport.ErrSessionUnknown
	}
	return nil
}

// Touch implements transport.SessionStore.
func (s *SessionStore) Touch(ctx context.Context, id string, now time.Time, ttl time.Duration) error {
	return s.update(ctx, id, fieldLastActive, millis(now), strconv.FormatInt(max(ttl.Milliseconds(), 0), 10), "refresh session record")
}

// SetLogLevel implements transport.SessionStore.
func (s *SessionStore) SetLogLevel(ctx context.Context, id, level string) error {
	return s.update(ctx, id, fieldLevel, level, "", "set session log level")
}

// Delete implements transport.SessionStore.
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	if err := s.rdb.Del(ctx, s.key(id)).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: delete session record: %w", ErrRedis, err)
	}
	return nil
}
