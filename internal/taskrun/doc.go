// Package taskrun is the task runtime of a fastmcp server: it runs the calls
// of tools registered with fastmcp.TaskSupport as tasks of the tasks extension
// (io.modelcontextprotocol/tasks, SEP-2663) and serves the extension's
// methods.
//
// It owns everything about tasks that is not about calling a Go handler:
// the task records (a store.TaskStore), the in-process state of the running
// tasks (their cancel functions and the input they wait for), the goroutines
// that run them, the leases a store.TaskLeaseStore keeps and their
// renewals, the bus topics of a task's status and of the requests for it
// (tasks/update and tasks/cancel received by another replica), the
// handlers of tasks/get, tasks/update and tasks/cancel, and the
// notifications/tasks sent to the listen streams following a task.
//
// Package fastmcp reaches it through a Manager only, from the files that
// the TaskSupport option links (task*.go): a server that registers no
// tool with TaskSupport links none of this package
// (fastmcp/link_test.go). The interface between the two, in full:
//
//   - fastmcp to the runtime (15 names): New with a Config, LeaseSettings to
//     check the settings when the server is made; Manager.Call for a
//     tools/call; Manager.Get, Update and Cancel as the methods' handlers;
//     Manager.Listen, Follow and CheckLeases for subscriptions/listen;
//     Manager.SetStore when the shared stores open late, Manager.Store,
//     Manager.Shutdown; and, from the handler, Task.ID, Task.SetStatus and
//     Task.Ask.
//   - the runtime to fastmcp (7 functions): the Config's Principal, Bus,
//     Enqueue and Broadcast, and the Call's Bind, Run and Plain.
//
// Lock order: a Task's mu, then the Manager's mu; never the other way
// round. Nothing does I/O under either: the task store, the lease store,
// the bus and the notifications are written outside both, in order.
package taskrun
