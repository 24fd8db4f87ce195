package oauthclient

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
)

// OpenBrowser opens authURL in the user's web browser (open on macOS,
// rundll32 on Windows, xdg-open elsewhere). It is meant for
// Config.OpenURL.
func OpenBrowser(ctx context.Context, authURL string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.CommandContext(ctx, "open", authURL)
	case "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", authURL)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", authURL)
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("oauthclient: opening a browser: %w", err)
	}
	return nil
}
