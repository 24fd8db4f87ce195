package taskrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// LapsedMessage is the status message, and the error message, of a task
// reported failed because the replica running it stopped renewing its
// lease (fastmcp.TaskLapsedMessage).
const LapsedMessage = "the server replica running this task stopped"

// LeaseSettings checks and completes the lease settings of
// fastmcp.TaskSettings; it panics on settings that cannot work, saying how
// to fix them.
func LeaseSettings(period, timeout time.Duration) (time.Duration, time.Duration) {
	if period < 0 || timeout < 0 {
		panic(fmt.Sprintf("fastmcp.Tasks: LeasePeriod (%v) and LeaseTimeout (%v) must not be negative; zero takes the defaults", period, timeout))
	}
	if period == 0 {
		period = DefaultLeasePeriod
	}
	if timeout == 0 {
		timeout = max(DefaultLeaseTimeout, 3*period)
	}
	if timeout <= period {
		panic(fmt.Sprintf("fastmcp.Tasks: LeaseTimeout (%v) must be longer than LeasePeriod (%v), or the lease lapses between two renewals; three times LeasePeriod is usual", timeout, period))
	}
	return period, timeout
}

// leases returns the store's leases, or nil when it keeps none.
func (m *Manager) leases() store.TaskLeaseStore {
	l, _ := m.store.(store.TaskLeaseStore)
	return l
}

// lease takes the lease of a new task, before it is stored, and starts
// the renewals.
func (m *Manager) lease(ctx context.Context, id string) error {
	l := m.leases()
	if l == nil {
		return nil
	}
	if _, err := l.RenewLeases(ctx, []string{id}, m.leaseTimeout); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.renewing && !m.closed {
		m.renewing = true
		m.wg.Add(1)
		go m.renew(l)
	}
	return nil
}

// renew renews the leases of the tasks running here every leasePeriod,
// until shutdown.
func (m *Manager) renew(l store.TaskLeaseStore) {
	defer m.wg.Done()
	t := time.NewTicker(m.leasePeriod)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		m.mu.Lock()
		ids := make([]string, 0, len(m.running))
		for id := range m.running {
			ids = append(ids, id)
		}
		m.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		// A slow renewal may take longer than a period (the ticker drops
		// the ticks meanwhile), not so long that the lease lapses.
		ctx, cancel := context.WithTimeout(m.ctx, min(m.leaseTimeout/2, storeTimeout))
		lapsed, err := l.RenewLeases(ctx, ids, m.leaseTimeout)
		cancel()
		m.stopLapsed(lapsed)
		switch {
		case err != nil && m.ctx.Err() == nil && !failing:
			failing = true
			m.logger.Error("task store: renewing the leases of the running tasks failed; other replicas will report them failed if this goes on", "tasks", len(ids), "error", err)
		case err == nil && failing:
			failing = false
			m.logger.Info("task store: the leases of the running tasks are renewed again")
		}
	}
}

// errLapsed is the cause a task's context is cancelled with when its
// lease was found lapsed: another replica took this one for dead and
// reported the task failed, which stands (store.TaskStore.Update refuses to
// change an ended task).
var errLapsed = errors.New("fastmcp: this replica did not renew the task's lease in time; another replica reported the task failed")

// stopLapsed cancels the handlers of the tasks running here whose leases
// lapsed.
func (m *Manager) stopLapsed(ids []string) {
	for _, id := range ids {
		if t := m.lookup(id); t != nil {
			m.logger.Warn("task stopped: its lease lapsed and another replica reported it failed", "task", id)
			t.cancel(errLapsed)
		}
	}
}

// checkLease returns rec as the task stands: failed when it is not ended,
// runs on another replica (not here) and its lease lapsed. The first
// replica to find the lease lapsed records the end and publishes it.
func (m *Manager) checkLease(ctx context.Context, rec *store.TaskRecord) (*store.TaskRecord, error) {
	l := m.leases()
	if l == nil || rec.Terminal() || rec.Runner == "" || m.lookup(rec.ID) != nil {
		return rec, nil
	}
	lapsed, first, err := l.LeaseLapsed(ctx, rec)
	if err != nil || !lapsed {
		return rec, err
	}
	rec.Status, rec.StatusMessage, rec.InputRequests, rec.UpdatedAt = protocol.TaskFailed, LapsedMessage, nil, m.now()
	rec.Error = protocol.NewError(protocol.CodeInternalError, LapsedMessage)
	if !first {
		return rec, nil
	}
	m.logger.Warn("task failed: the replica running it stopped renewing its lease", "task", rec.ID, "runner", rec.Runner)
	switch err := m.store.Update(ctx, rec); {
	case errors.Is(err, store.ErrTaskEnded):
		// The task ended meanwhile (its runner was alive after all):
		// that outcome stands.
		cur, err := m.store.Get(ctx, rec.ID)
		if errors.Is(err, store.ErrTaskNotFound) {
			return rec, nil // expired meanwhile, as below
		}
		return cur, err
	case err != nil && !errors.Is(err, store.ErrTaskNotFound):
		return nil, err
	}
	m.notify(rec)
	return rec, nil
}
