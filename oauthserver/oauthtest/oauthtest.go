// Package oauthtest plays the person at the browser through the
// authorization server's pages, for tests and the conformance driver: it
// follows the authorization URL, signs in on DemoLogin's form, answers the
// consent page, and follows the redirect back to the client. The pages
// need no JavaScript, so plain HTTP with a cookie jar does it.
package oauthtest

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
)

// A Browser keeps cookies across the pages, as a browser does.
type Browser struct {
	// User is the name typed into the demo login form.
	User string
	// Deny answers the consent page with Deny instead of Allow.
	Deny bool
	// Client sends the requests; its Jar keeps the cookies.
	Client *http.Client
}

// New returns a Browser that signs in as user.
func New(user string) *Browser {
	jar, _ := cookiejar.New(nil) // never fails without options
	return &Browser{User: user, Client: &http.Client{Jar: jar}}
}

// A Form is an HTML form found on a page.
type Form struct {
	// Action is the absolute URL the form posts to.
	Action string
	// Fields are the form's inputs with their values, and the value of
	// the button pressed ("decision": allow or deny on the consent page).
	Fields url.Values
}

var (
	formRE   = regexp.MustCompile(`(?s)<form method="post" action="([^"]*)">(.*?)</form>`)
	inputRE  = regexp.MustCompile(`<input([^>]*)>`)
	attrRE   = regexp.MustCompile(`(\w+)="([^"]*)"`)
	buttonRE = regexp.MustCompile(`<button[^>]*name="([^"]*)" value="([^"]*)"`)
)

// ParseForm returns the first form of page, at base.
func ParseForm(page string, base *url.URL) (*Form, bool) {
	m := formRE.FindStringSubmatch(page)
	if m == nil {
		return nil, false
	}
	action, err := base.Parse(html.UnescapeString(m[1]))
	if err != nil {
		return nil, false
	}
	f := &Form{Action: action.String(), Fields: url.Values{}}
	for _, in := range inputRE.FindAllStringSubmatch(m[2], -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(in[1], -1) {
			attrs[a[1]] = html.UnescapeString(a[2])
		}
		if attrs["name"] != "" {
			f.Fields.Set(attrs["name"], attrs["value"])
		}
	}
	return f, true
}

// Buttons returns the name and values of the page's submit buttons.
func Buttons(page string) map[string][]string {
	b := map[string][]string{}
	for _, m := range buttonRE.FindAllStringSubmatch(page, -1) {
		b[m[1]] = append(b[m[1]], m[2])
	}
	return b
}

// Open follows authURL through the login and consent pages until a page
// without a form: the client's redirect URI, whose answer it returns.
func (b *Browser) Open(ctx context.Context, authURL string) (*http.Response, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, "", err
	}
	for range 6 {
		resp, body, err := b.do(req)
		if err != nil {
			return nil, "", err
		}
		form, ok := ParseForm(body, resp.Request.URL)
		if !ok {
			return resp, body, nil
		}
		if _, ok := form.Fields["username"]; ok {
			form.Fields.Set("username", b.User)
		}
		if _, ok := Buttons(body)["decision"]; ok {
			form.Fields.Set("decision", map[bool]string{false: "allow", true: "deny"}[b.Deny])
		}
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, form.Action, strings.NewReader(form.Fields.Encode()))
		if err != nil {
			return nil, "", err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return nil, "", errors.New("oauthtest: too many forms")
}

// OpenURL is Open for oauthclient.Config.OpenURL.
func (b *Browser) OpenURL(ctx context.Context, authURL string) error {
	resp, body, err := b.Open(ctx, authURL)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		return fmt.Errorf("oauthtest: %s: %d %s", resp.Request.URL, resp.StatusCode, body)
	}
	return nil
}

// do sends req, following redirects, and reads the last answer's body.
func (b *Browser) do(req *http.Request) (*http.Response, string, error) {
	resp, err := b.Client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(body), err
}
