package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// SessionStoreOptions configures a SessionStore. The zero value takes the
// defaults.
type SessionStoreOptions struct {
	// Prefix starts every key the store writes. Default DefaultPrefix.
	Prefix string
}

// SessionStore is a store.SessionStore in Redis: the records of the
// legacy sessions that every replica of a server may serve
// (transport.HTTPOptions.Sessions). A record is one hash, which Redis
// expires TTL after the session's last refresh; each operation on it is
// one atomic command, transaction or script.
//
// The members of a session's State are fields of its hash ("state:" and
// the member's name). A session's resources/subscribe subscriptions are
// fields of its hash too ("sub:" and the URI), and each URI has an index of the sessions
// subscribed to it: a sorted set scored by when each session's record
// expires, moved on as the record is refreshed, which Redis expires with
// its last session. Subscribers drops the entries of sessions whose
// records are gone as it reads them.
type SessionStore struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ store.SessionStore = (*SessionStore)(nil)

// NewSessionStore returns a SessionStore using rdb. opts may be nil.
func NewSessionStore(rdb redis.UniversalClient, opts *SessionStoreOptions) *SessionStore {
	s := &SessionStore{rdb: rdb, prefix: DefaultPrefix}
	if opts != nil && opts.Prefix != "" {
		s.prefix = opts.Prefix
	}
	return s
}

func (s *SessionStore) key(id string) string { return s.prefix + "session:{" + id + "}" }

// subsKey names the index of the sessions subscribed to uri.
func (s *SessionStore) subsKey(uri string) string { return s.prefix + "subscribers:{" + uri + "}" }

// Fields of a record's hash.
const (
	fieldPrincipal  = "principal"
	fieldVersion    = "version"
	fieldParams     = "params"
	fieldCreated    = "created"    // Unix milliseconds
	fieldLastActive = "lastActive" // Unix milliseconds
	fieldSubPrefix  = "sub:"       // followed by a URI the session subscribed to
	fieldStatePfx   = "state:"     // followed by the name of a member of the session's state
)

func millis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// Create implements store.SessionStore.
func (s *SessionStore) Create(ctx context.Context, rec *store.SessionRecord, ttl time.Duration) error {
	k := s.key(rec.ID)
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		p.HSet(ctx, k,
			fieldPrincipal, rec.Principal,
			fieldVersion, rec.Version,
			fieldParams, []byte(rec.InitializeParams),
			fieldCreated, millis(rec.Created),
			fieldLastActive, millis(rec.LastActive))
		for _, uri := range rec.Subscriptions {
			p.HSet(ctx, k, fieldSubPrefix+uri, "1")
		}
		for name, v := range rec.State {
			p.HSet(ctx, k, fieldStatePfx+name, []byte(v))
		}
		if ttl > 0 {
			p.PExpire(ctx, k, ttl)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: create session record: %w", ErrRedis, err)
	}
	if err := s.index(ctx, rec.ID, rec.Subscriptions, ttl); err != nil {
		return fmt.Errorf("%w: create session record: %w", ErrRedis, err)
	}
	return nil
}

// Get implements store.SessionStore.
func (s *SessionStore) Get(ctx context.Context, id string) (*store.SessionRecord, error) {
	m, err := s.rdb.HGetAll(ctx, s.key(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: read session record: %w", ErrRedis, err)
	}
	if len(m) == 0 {
		return nil, store.ErrSessionUnknown
	}
	rec := &store.SessionRecord{
		ID:        id,
		Principal: m[fieldPrincipal],
		Version:   m[fieldVersion],
	}
	if p := m[fieldParams]; p != "" {
		rec.InitializeParams = []byte(p)
	}
	rec.Created = fromMillis(m[fieldCreated])
	rec.LastActive = fromMillis(m[fieldLastActive])
	for f, v := range m {
		if uri, ok := strings.CutPrefix(f, fieldSubPrefix); ok {
			rec.Subscriptions = append(rec.Subscriptions, uri)
		}
		if name, ok := strings.CutPrefix(f, fieldStatePfx); ok {
			if rec.State == nil {
				rec.State = map[string]json.RawMessage{}
			}
			rec.State[name] = json.RawMessage(v)
		}
	}
	slices.Sort(rec.Subscriptions)
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
		return store.ErrSessionUnknown
	}
	return nil
}

// touchScript sets the lastActive field of the record KEYS[1] to ARGV[1]
// and its expiry to ARGV[2] ms from now (0: none); it returns false when
// there is no record, else the URIs the session subscribed to.
var touchScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], '` + fieldLastActive + `', ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
local subs = {}
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, ` + strconv.Itoa(len(fieldSubPrefix)) + `) == '` + fieldSubPrefix + `' then
    table.insert(subs, string.sub(f, ` + strconv.Itoa(len(fieldSubPrefix)+1) + `))
  end
end
return subs
`)

// Touch implements store.SessionStore: the entries of the session in
// the indexes of the URIs it subscribed to expire with the record again.
// They are entered afresh, from the subscriptions the record lists, so
// that an entry lost (an index write that failed after the record was
// written, an entry pruned meanwhile) is back after the next touch. An
// entry re-entered for a subscription removed meanwhile is dropped by the
// next Subscribers.
func (s *SessionStore) Touch(ctx context.Context, id string, now time.Time, ttl time.Duration) error {
	ttl = max(ttl, 0)
	res, err := touchScript.Run(ctx, s.rdb, []string{s.key(id)}, millis(now), strconv.FormatInt(ttl.Milliseconds(), 10)).StringSlice()
	switch {
	case errors.Is(err, redis.Nil):
		return store.ErrSessionUnknown
	case err != nil:
		return fmt.Errorf("%w: refresh session record: %w", ErrRedis, err)
	}
	if err := s.index(ctx, id, res, ttl); err != nil {
		return fmt.Errorf("%w: refresh session record: %w", ErrRedis, err)
	}
	return nil
}

// subsIndexScript adds (or moves) the session ARGV[1] in the index KEYS[1],
// to expire ARGV[2] ms from now (0: never), and makes Redis expire the
// index with its last session.
var subsIndexScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local score = '+inf'
if ttl > 0 then score = string.format('%d', now + ttl) end
redis.call('ZADD', KEYS[1], score, ARGV[1])
local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if top[2] == 'inf' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIREAT', KEYS[1], top[2])
end
return 1
`)

// index enters session id in the indexes of uris, to expire ttl from now
// (zero: never).
func (s *SessionStore) index(ctx context.Context, id string, uris []string, ttl time.Duration) error {
	if len(uris) == 0 {
		return nil
	}
	ms := strconv.FormatInt(max(ttl, 0).Milliseconds(), 10)
	cmds, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, uri := range uris {
			subsIndexScript.Eval(ctx, p, []string{s.subsKey(uri)}, id, ms)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range cmds {
		if err := c.Err(); err != nil {
			return err
		}
	}
	return nil
}

// SetState implements store.SessionStore: the member is the field
// "state:" and its name of the session's hash.
func (s *SessionStore) SetState(ctx context.Context, id, name string, value json.RawMessage) error {
	return s.update(ctx, id, fieldStatePfx+name, string(value), "", "set session state")
}

// subscribeScript adds the field ARGV[1] to the record KEYS[1]; it returns
// -2 when there is no record, else the record's TTL in ms (-1: none).
var subscribeScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
redis.call('HSET', KEYS[1], ARGV[1], '1')
return redis.call('PTTL', KEYS[1])
`)

// Subscribe implements store.SessionStore.
func (s *SessionStore) Subscribe(ctx context.Context, id, uri string) error {
	pttl, err := subscribeScript.Run(ctx, s.rdb, []string{s.key(id)}, fieldSubPrefix+uri).Int64()
	if err != nil {
		return fmt.Errorf("%w: record subscription: %w", ErrRedis, err)
	}
	if pttl == -2 {
		return store.ErrSessionUnknown
	}
	if err := s.index(ctx, id, []string{uri}, time.Duration(max(pttl, 0))*time.Millisecond); err != nil {
		return fmt.Errorf("%w: record subscription: %w", ErrRedis, err)
	}
	return nil
}

// Unsubscribe implements store.SessionStore.
func (s *SessionStore) Unsubscribe(ctx context.Context, id, uri string) (bool, error) {
	var del *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		del = p.HDel(ctx, s.key(id), fieldSubPrefix+uri)
		p.ZRem(ctx, s.subsKey(uri), id)
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("%w: remove subscription: %w", ErrRedis, err)
	}
	return del.Val() > 0, nil
}

// subscribersScript drops the expired entries of the index KEYS[1] and
// returns the others.
var subscribersScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. string.format('%d', now))
return redis.call('ZRANGE', KEYS[1], 0, -1)
`)

// Subscribers implements store.SessionStore. It drops from the index
// the sessions whose records are gone or no longer subscribe to uri (as
// after an unsubscribe that failed halfway).
func (s *SessionStore) Subscribers(ctx context.Context, uri string) ([]string, error) {
	idx := s.subsKey(uri)
	ids, err := subscribersScript.Run(ctx, s.rdb, []string{idx}).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("%w: read subscribers: %w", ErrRedis, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	exists := make([]*redis.BoolCmd, len(ids))
	if _, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			exists[i] = p.HExists(ctx, s.key(id), fieldSubPrefix+uri)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("%w: read subscribers: %w", ErrRedis, err)
	}
	live := ids[:0]
	var gone []any
	for i, id := range ids {
		if exists[i].Val() {
			live = append(live, id)
		} else {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		if err := s.rdb.ZRem(ctx, idx, gone...).Err(); err != nil {
			return nil, fmt.Errorf("%w: prune subscribers: %w", ErrRedis, err)
		}
	}
	return live, nil
}

// Delete implements store.SessionStore.
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	k := s.key(id)
	fields, err := s.rdb.HKeys(ctx, k).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: delete session record: %w", ErrRedis, err)
	}
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		for _, f := range fields {
			if uri, ok := strings.CutPrefix(f, fieldSubPrefix); ok {
				p.ZRem(ctx, s.subsKey(uri), id)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: delete session record: %w", ErrRedis, err)
	}
	return nil
}
