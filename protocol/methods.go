package protocol

// Request methods of every revision. The comment gives the revisions that
// send the method as a JSON-RPC request; see [HasMethod].
const (
	MethodInitialize             = "initialize"               // 2024-11-05 to 2025-11-25
	MethodPing                   = "ping"                     // 2024-11-05 to 2025-11-25
	MethodServerDiscover         = "server/discover"          // 2026-07-28
	MethodToolsList              = "tools/list"               // all
	MethodToolsCall              = "tools/call"               // all
	MethodPromptsList            = "prompts/list"             // all
	MethodPromptsGet             = "prompts/get"              // all
	MethodResourcesList          = "resources/list"           // all
	MethodResourcesTemplatesList = "resources/templates/list" // all
	MethodResourcesRead          = "resources/read"           // all
	MethodResourcesSubscribe     = "resources/subscribe"      // 2024-11-05 to 2025-11-25
	MethodResourcesUnsubscribe   = "resources/unsubscribe"    // 2024-11-05 to 2025-11-25
	MethodSubscriptionsListen    = "subscriptions/listen"     // 2026-07-28
	MethodCompletionComplete     = "completion/complete"      // all
	MethodLoggingSetLevel        = "logging/setLevel"         // 2024-11-05 to 2025-11-25
	MethodSamplingCreateMessage  = "sampling/createMessage"   // server to client, 2024-11-05 to 2025-11-25; an input request in 2026-07-28
	MethodElicitationCreate      = "elicitation/create"       // server to client, 2025-06-18 to 2025-11-25; an input request in 2026-07-28
	MethodRootsList              = "roots/list"               // server to client, 2024-11-05 to 2025-11-25; an input request in 2026-07-28
	MethodTasksGet               = "tasks/get"                // 2025-11-25 (then the tasks extension)
	MethodTasksResult            = "tasks/result"             // 2025-11-25
	MethodTasksList              = "tasks/list"               // 2025-11-25
	MethodTasksCancel            = "tasks/cancel"             // 2025-11-25 (then the tasks extension)
	MethodTasksUpdate            = "tasks/update"             // tasks extension (2026-07-28)
)

// Notification methods of every revision.
const (
	NotificationInitialized               = "notifications/initialized"                // 2024-11-05 to 2025-11-25
	NotificationCancelled                 = "notifications/cancelled"                  // all
	NotificationProgress                  = "notifications/progress"                   // all
	NotificationMessage                   = "notifications/message"                    // all (logging)
	NotificationResourcesUpdated          = "notifications/resources/updated"          // all
	NotificationResourcesListChanged      = "notifications/resources/list_changed"     // all
	NotificationToolsListChanged          = "notifications/tools/list_changed"         // all
	NotificationPromptsListChanged        = "notifications/prompts/list_changed"       // all
	NotificationRootsListChanged          = "notifications/roots/list_changed"         // 2024-11-05 to 2025-11-25
	NotificationElicitationComplete       = "notifications/elicitation/complete"       // 2025-11-25
	NotificationSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged" // 2026-07-28
	NotificationTasksStatus               = "notifications/tasks/status"               // 2025-11-25
	NotificationTasks                     = "notifications/tasks"                      // tasks extension (2026-07-28)
)

// methodRevisions gives the first and last revision ("" = still current)
// in which each core method travels as a JSON-RPC message.
var methodRevisions = map[string][2]string{
	MethodInitialize:             {Version20241105, Version20251125},
	MethodPing:                   {Version20241105, Version20251125},
	MethodServerDiscover:         {Version20260728, ""},
	MethodToolsList:              {Version20241105, ""},
	MethodToolsCall:              {Version20241105, ""},
	MethodPromptsList:            {Version20241105, ""},
	MethodPromptsGet:             {Version20241105, ""},
	MethodResourcesList:          {Version20241105, ""},
	MethodResourcesTemplatesList: {Version20241105, ""},
	MethodResourcesRead:          {Version20241105, ""},
	MethodResourcesSubscribe:     {Version20241105, Version20251125},
	MethodResourcesUnsubscribe:   {Version20241105, Version20251125},
	MethodSubscriptionsListen:    {Version20260728, ""},
	MethodCompletionComplete:     {Version20241105, ""},
	MethodLoggingSetLevel:        {Version20241105, Version20251125},
	MethodSamplingCreateMessage:  {Version20241105, Version20251125},
	MethodElicitationCreate:      {Version20250618, Version20251125},
	MethodRootsList:              {Version20241105, Version20251125},
	MethodTasksGet:               {Version20251125, Version20251125},
	MethodTasksResult:            {Version20251125, Version20251125},
	MethodTasksList:              {Version20251125, Version20251125},
	MethodTasksCancel:            {Version20251125, Version20251125},

	NotificationInitialized:               {Version20241105, Version20251125},
	NotificationCancelled:                 {Version20241105, ""},
	NotificationProgress:                  {Version20241105, ""},
	NotificationMessage:                   {Version20241105, ""},
	NotificationResourcesUpdated:          {Version20241105, ""},
	NotificationResourcesListChanged:      {Version20241105, ""},
	NotificationToolsListChanged:          {Version20241105, ""},
	NotificationPromptsListChanged:        {Version20241105, ""},
	NotificationRootsListChanged:          {Version20241105, Version20251125},
	NotificationElicitationComplete:       {Version20251125, Version20251125},
	NotificationSubscriptionsAcknowledged: {Version20260728, ""},
	NotificationTasksStatus:               {Version20251125, Version20251125},
}

// HasMethod reports whether the core protocol of revision version sends
// method as a JSON-RPC request or notification. It is false for unknown
// methods, for extension methods, and in 2026-07-28 for
// sampling/createMessage, elicitation/create and roots/list, which there
// only travel inside an [InputRequiredResult].
func HasMethod(version, method string) bool {
	r, ok := methodRevisions[method]
	if !ok || !IsSupported(version) {
		return false
	}
	return version >= r[0] && (r[1] == "" || version <= r[1])
}
