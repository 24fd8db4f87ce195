package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// tokenFile is where --oauth keeps the tokens for the server at
// serverURL: one file per server (so two commands talking to different
// servers never overwrite each other's tokens) under the user's
// configuration directory, $XDG_CONFIG_HOME/fastmcp/tokens on Linux
// (~/.config), ~/Library/Application Support/fastmcp/tokens on macOS,
// %AppData%\fastmcp\tokens on Windows. The file name is the server's host
// and a hash of its whole URL; oauthclient writes it with mode 0600 in a
// directory of mode 0700.
func tokenFile(serverURL string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("--oauth: no directory to keep tokens in: %w", err)
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", err
	}
	host := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, u.Host)
	sum := sha256.Sum256([]byte(serverURL))
	return filepath.Join(dir, "fastmcp", "tokens", host+"-"+hex.EncodeToString(sum[:6])+".json"), nil
}

// oauthConfig is the OAuth configuration of --oauth for the server at
// serverURL: a dynamically registered client named fastmcp, tokens in
// tokenFile, and the user sent to log in through the browser (or the URL
// printed, with --no-browser).
func (a *app) oauthConfig(serverURL string, logger *slog.Logger) (oauthclient.Config, error) {
	path, err := tokenFile(serverURL)
	if err != nil {
		return oauthclient.Config{}, err
	}
	cfg := oauthclient.Config{
		ClientName: "fastmcp CLI",
		Store:      oauthclient.NewFileStore(path),
		Logger:     logger,
	}
	if !a.noInput {
		cfg.OpenURL = a.openURL
	}
	return cfg, nil
}

// openURL sends the user to the authorization page: it prints the URL on
// stderr, on a line of its own, and opens a browser unless --no-browser.
func (a *app) openURL(ctx context.Context, authURL string) error {
	a.status().line("To authorize, open this URL in a browser:\n  " + authURL)
	if a.noBrowser {
		return nil
	}
	if err := oauthclient.OpenBrowser(ctx, authURL); err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		a.status().line("(no browser could be opened: open the URL yourself)")
	}
	return nil
}
