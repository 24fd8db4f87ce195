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

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// TaskStoreOptions configures a TaskStore. The zero value takes the
// defaults.
type TaskStoreOptions struct {
	// Prefix starts every key the store writes. Default DefaultPrefix.
	Prefix string
}

// TaskStore is a store.TaskStore in Redis, so that any replica can
// answer tasks/get, tasks/result and tasks/list for a task another one
// runs. Each task is one JSON value that Redis expires at CreatedAt+TTL
// (a task with no TTL stays until deleted from Redis); each principal has
// an index of its tasks, pruned of expired ones as it is read.
type TaskStore struct {
	rdb    redis.UniversalClient
	prefix string
	now    func() time.Time
}

var _ store.TaskStore = (*TaskStore)(nil)

// NewTaskStore returns a TaskStore using rdb. opts may be nil.
func NewTaskStore(rdb redis.UniversalClient, opts *TaskStoreOptions) *TaskStore {
	s := &TaskStore{rdb: rdb, prefix: DefaultPrefix, now: time.Now}
	if opts != nil && opts.Prefix != "" {
		s.prefix = opts.Prefix
	}
	return s
}

// ErrTaskExists is returned by TaskStore.Create for an ID already stored.
var ErrTaskExists = errors.New("redisstore: task id already exists")

func (s *TaskStore) taskKey(id string) string { return s.prefix + "task:" + id }

func (s *TaskStore) indexKey(principal string) string {
	return s.prefix + "tasks-of:" + principal
}

// expiry returns when rec expires, or the zero time when it does not.
func expiry(rec *store.TaskRecord) time.Time {
	if rec.TTL <= 0 {
		return time.Time{}
	}
	return rec.CreatedAt.Add(rec.TTL)
}

// Create implements store.TaskStore. A record whose TTL has already
// passed is not stored.
func (s *TaskStore) Create(ctx context.Context, rec *store.TaskRecord) error {
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("redisstore: encode task %q: %w", rec.ID, err)
	}
	exp := expiry(rec)
	if !exp.IsZero() && !s.now().Before(exp) {
		return nil // expired already: Get will not find it, as in memory
	}
	args := redis.SetArgs{Mode: "NX", ExpireAt: exp}
	ok, err := s.rdb.SetArgs(ctx, s.taskKey(rec.ID), val, args).Result()
	if errors.Is(err, redis.Nil) {
		return fmt.Errorf("%w: %q", ErrTaskExists, rec.ID)
	}
	if err != nil {
		return fmt.Errorf("%w: create task: %w", ErrRedis, err)
	}
	if ok != "OK" {
		return fmt.Errorf("%w: %q", ErrTaskExists, rec.ID)
	}
	// The index scores each task by its expiry (ms; +inf for none) so
	// that reading it prunes expired tasks; the index itself expires
	// with its last task.
	score := "+inf"
	if !exp.IsZero() {
		score = strconv.FormatInt(exp.UnixMilli(), 10)
	}
	err = indexScript.Run(ctx, s.rdb, []string{s.indexKey(rec.Principal)}, score, rec.ID).Err()
	if err != nil {
		return fmt.Errorf("%w: index task: %w", ErrRedis, err)
	}
	return nil
}

// indexScript adds task ARGV[2] expiring at ARGV[1] (ms, or +inf) to the
// index KEYS[1], and makes the index expire with its last task.
var indexScript = redis.NewScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] == 'inf' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return 1
`)

// Get implements store.TaskStore.
func (s *TaskStore) Get(ctx context.Context, id string) (*store.TaskRecord, error) {
	val, err := s.rdb.Get(ctx, s.taskKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, store.ErrTaskNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("%w: get task: %w", ErrRedis, err)
	}
	return s.decode(id, val)
}

func (s *TaskStore) decode(id string, val []byte) (*store.TaskRecord, error) {
	var rec store.TaskRecord
	if err := json.Unmarshal(val, &rec); err != nil {
		return nil, fmt.Errorf("redisstore: decode task %q: %w", id, err)
	}
	if exp := expiry(&rec); !exp.IsZero() && !s.now().Before(exp) {
		return nil, store.ErrTaskNotFound // Redis has not expired it yet
	}
	return &rec, nil
}

// Update implements store.TaskStore. It keeps the task's expiry, and
// refuses (store.ErrTaskEnded) to overwrite a task whose stored status
// is final: the check and the write are one script.
func (s *TaskStore) Update(ctx context.Context, rec *store.TaskRecord) error {
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("redisstore: encode task %q: %w", rec.ID, err)
	}
	if exp := expiry(rec); !exp.IsZero() && !s.now().Before(exp) {
		return store.ErrTaskNotFound
	}
	n, err := updateTaskScript.Run(ctx, s.rdb, []string{s.taskKey(rec.ID)}, val).Int()
	if err != nil {
		return fmt.Errorf("%w: update task: %w", ErrRedis, err)
	}
	switch n {
	case 0:
		return store.ErrTaskNotFound
	case 2:
		return fmt.Errorf("%w: %q", store.ErrTaskEnded, rec.ID)
	}
	return nil
}

// updateTaskScript replaces the task KEYS[1] by ARGV[1], keeping its expiry,
// unless its stored status is final. It returns 0 for a task not stored,
// 2 for one ended, 1 once replaced.
var updateTaskScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, cur = pcall(cjson.decode, v)
if ok and type(cur) == 'table' then
  local st = cur['status']
  if st == '` + string(protocol.TaskCompleted) + `' or st == '` + string(protocol.TaskFailed) + `' or st == '` + string(protocol.TaskCancelled) + `' then
    return 2
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
`)

// List implements store.TaskStore.
func (s *TaskStore) List(ctx context.Context, principal string) ([]*store.TaskRecord, error) {
	idx := s.indexKey(principal)
	now := strconv.FormatInt(s.now().UnixMilli(), 10)
	if err := s.rdb.ZRemRangeByScore(ctx, idx, "-inf", now).Err(); err != nil {
		return nil, fmt.Errorf("%w: list tasks: %w", ErrRedis, err)
	}
	ids, err := s.rdb.ZRange(ctx, idx, 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: list tasks: %w", ErrRedis, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	cmds := make([]*redis.StringCmd, len(ids))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.Get(ctx, s.taskKey(id))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("%w: list tasks: %w", ErrRedis, err)
	}
	var out []*store.TaskRecord
	for i, c := range cmds {
		val, err := c.Bytes()
		if err != nil {
			continue // expired between the index and the read
		}
		rec, err := s.decode(ids[i], val)
		if errors.Is(err, store.ErrTaskNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if rec.Principal == principal {
			out = append(out, rec)
		}
	}
	slices.SortFunc(out, func(a, b *store.TaskRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

var _ store.TaskLeaseStore = (*TaskStore)(nil)

// leaseKey names the lease of task id: present while the replica running
// the task renews it, then "lapsed" once a replica found it ended.
func (s *TaskStore) leaseKey(id string) string { return s.prefix + "task-lease:" + id }

// leaseLapsed is the value of a lease found ended.
const leaseLapsed = "lapsed"

// renewScript sets the lease KEYS[1] to end ARGV[1] ms from now, unless
// it was found lapsed.
var renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == '` + leaseLapsed + `' then return 0 end
redis.call('SET', KEYS[1], 'held', 'PX', ARGV[1])
return 1
`)

// RenewLeases implements store.TaskLeaseStore: one key per task, which
// Redis expires at the end of the lease.
func (s *TaskStore) RenewLeases(ctx context.Context, ids []string, timeout time.Duration) (lapsed []string, err error) {
	ms := strconv.FormatInt(max(timeout.Milliseconds(), 1), 10)
	cmds := make([]*redis.Cmd, len(ids))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = renewScript.Eval(ctx, p, []string{s.leaseKey(id)}, ms)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: renew task leases: %w", ErrRedis, err)
	}
	for i, c := range cmds {
		n, err := c.Int()
		if err != nil {
			return nil, fmt.Errorf("%w: renew task leases: %w", ErrRedis, err)
		}
		if n == 0 {
			lapsed = append(lapsed, ids[i])
		}
	}
	return lapsed, nil
}

// lapseScript returns 0 while the lease KEYS[1] holds, 1 when it was found
// lapsed before, and 2 when it is found lapsed now: it is then marked so,
// to expire ARGV[1] ms from now (with the task; empty: never).
var lapseScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == '` + leaseLapsed + `' then return 1 end
if v then return 0 end
if ARGV[1] == '' then
  redis.call('SET', KEYS[1], '` + leaseLapsed + `')
else
  redis.call('SET', KEYS[1], '` + leaseLapsed + `', 'PX', ARGV[1])
end
return 2
`)

// LeaseLapsed implements store.TaskLeaseStore.
func (s *TaskStore) LeaseLapsed(ctx context.Context, rec *store.TaskRecord) (lapsed, first bool, err error) {
	keep := ""
	if exp := expiry(rec); !exp.IsZero() {
		keep = strconv.FormatInt(max(exp.Sub(s.now()).Milliseconds(), 1), 10)
	}
	n, err := lapseScript.Run(ctx, s.rdb, []string{s.leaseKey(rec.ID)}, keep).Int()
	if err != nil {
		return false, false, fmt.Errorf("%w: check task lease: %w", ErrRedis, err)
	}
	return n > 0, n == 2, nil
}
