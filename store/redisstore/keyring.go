package redisstore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// KeyRingOptions configure NewKeyRing. The zero value takes every default.
type KeyRingOptions struct {
	// Prefix starts the key the ring is kept under
	// (Prefix+"requeststate-keys", a hash). Default DefaultPrefix.
	Prefix string
	// Rotation is how long a key seals new states before the next one
	// takes over. Default 24 hours.
	Rotation time.Duration
	// StateTTL is how long a sealed state stays valid: the server's
	// RequestStateTTL (default 10 minutes). A key is dropped once the key
	// after it has sealed for this long (plus two poll intervals), so keep
	// it at least the RequestStateTTL of every replica.
	StateTTL time.Duration
	// PollInterval is how often each replica reads the ring from Redis,
	// rotating it when its time has come. A new key seals only two poll
	// intervals after it was made, once every replica has read it.
	// Default 30 seconds.
	PollInterval time.Duration
	// Logger receives a line when Redis stops answering the ring's polls
	// and one when it answers again. Default slog.Default().
	Logger *slog.Logger
}

// KeyRing is a store.KeyRing kept in Redis and shared by every replica
// that uses the same Redis and prefix: give it to
// fastmcp.RequestStateKeys (NewStores does). Each key is 32 random bytes
// named by the time it was made; the newest key whose time has come
// seals, every key still in the ring opens.
//
// The replicas rotate the ring themselves: each one polls Redis every
// PollInterval with one Lua script that makes a new key when the newest is
// older than Rotation (so two replicas polling at once make one key),
// drops the keys no valid state can need any more, and returns the ring.
// A new key seals only two poll intervals after it was made, so that every
// replica holds it before any state sealed with it reaches them.
//
// Current and Lookup never touch the network. When Redis does not answer
// a poll, the ring keeps sealing and opening with the keys it holds, logs
// it once, and catches up at the first poll that succeeds; if Redis lost
// the ring (a restart without persistence), the replicas write back the
// keys they hold.
type KeyRing struct {
	rdb      redis.UniversalClient
	key      string
	rotation time.Duration
	keep     time.Duration // how long a key stays once its successor seals
	stage    time.Duration // how long after it is made a key starts to seal
	poll     time.Duration
	logger   *slog.Logger

	mu     sync.Mutex
	keys   []ringKey     // by id, oldest first
	offset time.Duration // Redis's clock minus ours, at the last poll
	down   bool          // the last poll failed (logged)

	ctx    context.Context // the polls' context, cancelled by Close
	cancel context.CancelFunc
	done   chan struct{}
}

// ringKey is one key of the ring.
type ringKey struct {
	id     string
	n      int64 // the id's number: the key's order
	from   time.Time
	secret []byte
}

// NewKeyRing reads the ring under rdb, making its first key if there is
// none, within ctx, and starts polling it every PollInterval until Close
// (fastmcp.SharedStores, which NewStores gives it to, closes it at the server's
// Shutdown). It fails with an error matching ErrRedis when Redis cannot be
// reached. opts may be nil.
func NewKeyRing(ctx context.Context, rdb redis.UniversalClient, opts *KeyRingOptions) (*KeyRing, error) {
	var o KeyRingOptions
	if opts != nil {
		o = *opts
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.Rotation <= 0 {
		o.Rotation = 24 * time.Hour
	}
	if o.StateTTL <= 0 {
		o.StateTTL = 10 * time.Minute
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	r := &KeyRing{
		rdb: rdb, key: o.Prefix + "requeststate-keys", rotation: o.Rotation,
		stage: 2 * o.PollInterval, keep: o.StateTTL + 2*o.PollInterval, poll: o.PollInterval,
		logger: o.Logger, done: make(chan struct{}),
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if err := r.refresh(ctx, false); err != nil {
		r.cancel()
		return nil, err
	}
	go r.run()
	return r, nil
}

// Close stops the ring's polling and waits for it to end. The ring keeps
// the keys it holds.
func (r *KeyRing) Close() error {
	r.cancel()
	<-r.done
	return nil
}

func (r *KeyRing) run() {
	defer close(r.done)
	t := time.NewTicker(r.poll)
	defer t.Stop()
	ctx := r.ctx
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, r.poll)
		err := r.refresh(pctx, false)
		cancel()
		r.mu.Lock()
		switch {
		case err != nil && !r.down:
			r.down = true
			r.logger.Error("requestState key ring: Redis does not answer; sealing and opening with the keys held", "error", err)
		case err == nil && r.down:
			r.down = false
			r.logger.Info("requestState key ring: Redis answers again")
		}
		r.mu.Unlock()
	}
}

// Current returns the newest key whose time to seal has come.
func (r *KeyRing) Current() (string, []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now().Add(r.offset)
	cur := r.keys[0]
	for _, k := range r.keys[1:] {
		if !k.from.After(now) {
			cur = k
		}
	}
	return cur.id, cur.secret
}

// Lookup returns the secret of the key named id if the ring holds it.
func (r *KeyRing) Lookup(id string) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range r.keys {
		if k.id == id {
			return k.secret, true
		}
	}
	return nil, false
}

// Rotate makes a new key now, whatever the age of the newest: after a
// secret leaked, say. Like a scheduled one, the new key seals two poll
// intervals later; the old ones open until their states expire.
func (r *KeyRing) Rotate(ctx context.Context) error { return r.refresh(ctx, true) }

// Refresh reads the ring from Redis now, rotating it when its time has
// come, as the poll does every PollInterval.
func (r *KeyRing) Refresh(ctx context.Context) error { return r.refresh(ctx, false) }

// ringScript rotates, prunes and returns the ring in one step.
// KEYS[1] the ring's hash: field id (base 36 milliseconds) → "from:secret"
// with from the milliseconds (Redis time) from which the key seals.
// ARGV: rotation, keep, stage (ms); a fresh secret; "1" to rotate now;
// then pairs id, value of the keys the caller holds, written back when
// missing (Redis lost the ring).
// Returns {now ms, id1, value1, ...}.
var ringScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rotation, keep, stage = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 6, #ARGV, 2 do
  redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i+1])
end
local function b36(n)
  local digits, s = '0123456789abcdefghijklmnopqrstuvwxyz', ''
  repeat
    local d = n % 36
    s = string.sub(digits, d + 1, d + 1) .. s
    n = (n - d) / 36
  until n == 0
  return s
end
local all = redis.call('HGETALL', KEYS[1])
local keys = {}
for i = 1, #all, 2 do
  local n = tonumber(all[i], 36)
  local c = string.find(all[i+1], ':', 1, true)
  local from = c and tonumber(string.sub(all[i+1], 1, c - 1))
  if n and from then
    table.insert(keys, {id = all[i], n = n, from = from})
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
table.sort(keys, function(a, b) return a.n < b.n end)
local newest = keys[#keys]
if newest == nil or ARGV[5] == '1' or now >= newest.from + rotation then
  local n, from = now, now
  if newest ~= nil then
    from = now + stage
    if n <= newest.n then n = newest.n + 1 end
  end
  local id = b36(n)
  redis.call('HSET', KEYS[1], id, from .. ':' .. ARGV[4])
  table.insert(keys, {id = id, n = n, from = from})
end
for i = 1, #keys - 1 do
  if now >= keys[i+1].from + keep then
    redis.call('HDEL', KEYS[1], keys[i].id)
  end
end
local out = {now}
local left = redis.call('HGETALL', KEYS[1])
for i = 1, #left do out[#out + 1] = left[i] end
return out
`)

// refresh runs ringScript and replaces the keys held by its answer.
func (r *KeyRing) refresh(ctx context.Context, force bool) error {
	fresh := make([]byte, secretSize)
	_, _ = rand.Read(fresh)
	args := []any{r.rotation.Milliseconds(), r.keep.Milliseconds(), r.stage.Milliseconds(), fresh, "0"}
	if force {
		args[4] = "1"
	}
	r.mu.Lock()
	for _, k := range r.keys {
		args = append(args, k.id, strconv.FormatInt(k.from.Add(r.offset).UnixMilli(), 10)+":"+string(k.secret))
	}
	r.mu.Unlock()
	local := time.Now()
	res, err := ringScript.Run(ctx, r.rdb, []string{r.key}, args...).Slice()
	if err != nil {
		return fmt.Errorf("%w: read the requestState key ring: %w", ErrRedis, err)
	}
	keys, now, err := parseRing(res)
	if err != nil {
		return fmt.Errorf("redisstore: %s: %w", r.key, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.offset = now.Sub(local)
	for i := range keys {
		keys[i].from = keys[i].from.Add(-r.offset) // on our clock
	}
	r.keys = keys
	return nil
}

// parseRing reads ringScript's answer.
func parseRing(res []any) ([]ringKey, time.Time, error) {
	if len(res) < 3 || len(res)%2 == 0 {
		return nil, time.Time{}, errors.New("the ring script returned no key")
	}
	ms, ok := res[0].(int64)
	if !ok {
		return nil, time.Time{}, fmt.Errorf("the ring script returned %T for the time", res[0])
	}
	var keys []ringKey
	for i := 1; i < len(res); i += 2 {
		id, _ := res[i].(string)
		v, _ := res[i+1].(string)
		n, err := strconv.ParseInt(id, 36, 64)
		fromMS, secret, ok := strings.Cut(v, ":")
		from, err2 := strconv.ParseInt(fromMS, 10, 64)
		if err != nil || err2 != nil || !ok || len(secret) != secretSize {
			return nil, time.Time{}, fmt.Errorf("key %q is not a ring key; delete the hash and let the replicas write it back", id)
		}
		keys = append(keys, ringKey{id: id, n: n, from: time.UnixMilli(from), secret: []byte(secret)})
	}
	for i := 1; i < len(keys); i++ { // insertion sort: a handful of keys
		for j := i; j > 0 && keys[j].n < keys[j-1].n; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys, time.UnixMilli(ms), nil
}

var _ store.KeyRing = (*KeyRing)(nil)
