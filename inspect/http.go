package inspect

import (
	"cmp"
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moonmind-ai/moonmind/engine"
)

//go:embed static
var static embed.FS

// cookie keeps the token a page was opened with.
const cookie = "moonmind_inspect"

// Handler returns the inspector's HTTP handler: the page at the path it is
// mounted on (any prefix: http.Handle("/inspect/", ins.Handler()) serves
// the page at /inspect/ and the API at /inspect/api/) and the JSON API
// under api/. Every request passes the access check first (Options.Token,
// or a loopback client without one).
func (i *Inspector) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/worlds", i.getWorlds)
	mux.HandleFunc("GET /api/agents", i.getAgents)
	mux.HandleFunc("GET /api/worlds/{world}/agents/{name}", i.getAgent)
	mux.HandleFunc("GET /api/worlds/{world}/agents/{name}/history", i.getHistory)
	mux.HandleFunc("GET /api/worlds/{world}/agents/{name}/records", i.getRecords)
	mux.HandleFunc("GET /api/worlds/{world}/agents/{name}/whynot", i.getWhyNot)
	mux.HandleFunc("GET /api/kinds", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, kindNames()) })
	mux.HandleFunc("POST /api/worlds/{world}/pause", i.control(func(a *attached, _ *http.Request) (any, error) {
		a.pause()
		return a.statusHere(), nil
	}))
	mux.HandleFunc("POST /api/worlds/{world}/resume", i.control(func(a *attached, _ *http.Request) (any, error) {
		a.resume()
		return a.statusHere(), nil
	}))
	mux.HandleFunc("POST /api/worlds/{world}/step", i.control(func(a *attached, _ *http.Request) (any, error) {
		a.step(1)
		return a.statusHere(), nil
	}))
	mux.HandleFunc("POST /api/worlds/{world}/breakpoints", i.control(i.postBreakpoint))
	mux.HandleFunc("DELETE /api/worlds/{world}/breakpoints/{id}", i.control(i.deleteBreakpoint))
	mux.HandleFunc("POST /api/worlds/{world}/agents/{name}/state", i.control(i.postState))
	mux.HandleFunc("POST /api/worlds/{world}/reload", i.control(i.postReload))
	mux.HandleFunc("GET /api/ws", i.serveWS)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, fmt.Errorf("inspect: no API %s %s", r.Method, r.URL.Path))
	})
	files, _ := fs.Sub(static, "static")
	page := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !i.allowed(w, r) {
			return
		}
		// Mounted under any prefix: route by what follows it.
		path := r.URL.Path
		if k := strings.Index(path, "/api/"); k >= 0 {
			r2 := r.Clone(r.Context())
			r2.URL.Path = path[k:]
			r2.URL.RawPath = ""
			mux.ServeHTTP(w, r2)
			return
		}
		base := path[strings.LastIndex(path, "/")+1:]
		if base == "" || base == "index.html" {
			if !strings.HasSuffix(path, "/") {
				http.Redirect(w, r, path[:len(path)-len(base)], http.StatusFound)
				return
			}
			base = "/"
		} else {
			base = "/" + base
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = base
		w.Header().Set("Cache-Control", "no-store")
		page.ServeHTTP(w, r2)
	})
}

// allowed checks the token, or, without one, that the client is on this
// machine. A page opened with ?token= gets it as a cookie.
func (i *Inspector) allowed(w http.ResponseWriter, r *http.Request) bool {
	if i.opts.Token == "" {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err == nil && ip != nil && ip.IsLoopback() {
			return true
		}
		fail(w, http.StatusForbidden, errors.New("inspect: requests from other machines need a token (Options.Token)"))
		return false
	}
	got := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		got = strings.TrimPrefix(h, "Bearer ")
	} else if c, err := r.Cookie(cookie); got == "" && err == nil {
		got = c.Value
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(i.opts.Token)) != 1 {
		fail(w, http.StatusUnauthorized, errors.New("inspect: a valid token is required"))
		return false
	}
	if r.URL.Query().Get("token") != "" {
		http.SetCookie(w, &http.Cookie{Name: cookie, Value: got, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	return true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		// The client went away, or a value JSON cannot hold: the status is sent already.
		return
	}
}

func fail(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// failFor writes err with the status that fits it.
func failFor(w http.ResponseWriter, err error) {
	code := http.StatusBadRequest
	switch {
	case errors.Is(err, errBusy):
		code = http.StatusServiceUnavailable
	case errors.Is(err, errLate):
		code = http.StatusGatewayTimeout
	case errors.Is(err, errDetached), errors.Is(err, errNotFound):
		code = http.StatusNotFound
	case errors.Is(err, errNoControl):
		code = http.StatusForbidden
	case errors.Is(err, errNotPaused), errors.Is(err, errOffline):
		code = http.StatusConflict
	case errors.Is(err, context.Canceled):
		return
	}
	fail(w, code, err)
}

var errNotFound = errors.New("not found")

type notFound struct{ msg string }

func (e notFound) Error() string        { return e.msg }
func (e notFound) Is(target error) bool { return target == errNotFound }

func (i *Inspector) world(r *http.Request) (*attached, error) {
	name := r.PathValue("world")
	if a := i.named(name); a != nil {
		return a, nil
	}
	return nil, notFound{fmt.Sprintf("inspect: no world %q", name)}
}

func (i *Inspector) getWorlds(w http.ResponseWriter, r *http.Request) {
	out := []WorldStatus{}
	for _, a := range i.all() {
		out = append(out, a.statusHere())
	}
	writeJSON(w, out)
}

// getAgents answers api/agents: every agent of every world (or of
// ?world=), filtered by ?q= (in the name), ?role=, ?goal=, ?action=
// (substrings, any case), ?decision= (goap, utility, reactive, or none),
// ?stuck=1 and ?failed=1; sorted by ?sort= (name, role, goal, action,
// decision, failures, replans, ticks; agent order by default; ?desc=1
// reverses); paged by ?offset= and ?limit=. The header X-Total-Count is
// the number that passed the filter.
func (i *Inspector) getAgents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var rows []AgentRow
	for _, a := range i.all() {
		if name := q.Get("world"); name != "" && a.name != name {
			continue
		}
		v, err := a.call(r.Context(), func(a *attached) (any, error) {
			if a.trace != nil {
				out := make([]AgentRow, len(a.trace.agents))
				for k, ta := range a.trace.agents {
					out[k] = ta.rowIn(a.name)
				}
				return out, nil
			}
			out := make([]AgentRow, len(a.w.Agents))
			for k, ag := range a.w.Agents {
				out[k] = rowOf(a.name, ag)
			}
			return out, nil
		})
		if err != nil {
			failFor(w, err)
			return
		}
		rows = append(rows, v.([]AgentRow)...)
	}
	has := func(field, key string) bool {
		want := q.Get(key)
		return want == "" || strings.Contains(strings.ToLower(field), strings.ToLower(want))
	}
	out := []AgentRow{}
	for _, row := range rows {
		dec := q.Get("decision")
		if !has(row.Name, "q") || !has(row.Role, "role") || !has(row.Goal, "goal") || !has(row.Action, "action") ||
			(dec != "" && dec != cmp.Or(row.Decision, "none")) ||
			(q.Get("stuck") == "1" && !row.Stuck) || (q.Get("failed") == "1" && row.Failures == 0) {
			continue
		}
		out = append(out, row)
	}
	if key := q.Get("sort"); key != "" {
		by := func(x, y AgentRow) int {
			switch key {
			case "role":
				return cmp.Compare(x.Role, y.Role)
			case "goal":
				return cmp.Compare(x.Goal, y.Goal)
			case "action":
				return cmp.Compare(x.Action, y.Action)
			case "decision":
				return cmp.Compare(x.Decision, y.Decision)
			case "failures":
				return cmp.Compare(x.Failures, y.Failures)
			case "replans":
				return cmp.Compare(x.Replans, y.Replans)
			case "ticks":
				return cmp.Compare(x.Ticks, y.Ticks)
			}
			return naturalCompare(x.Name, y.Name)
		}
		slices.SortStableFunc(out, by)
		if q.Get("desc") == "1" {
			slices.Reverse(out)
		}
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(len(out)))
	offset, _ := strconv.Atoi(q.Get("offset"))
	offset = min(max(offset, 0), len(out))
	out = out[offset:]
	if limit, err := strconv.Atoi(q.Get("limit")); err == nil && limit >= 0 && limit < len(out) {
		out = out[:limit]
	}
	writeJSON(w, out)
}

// naturalCompare orders names with numbers by value: red2 before red10.
func naturalCompare(x, y string) int {
	for x != "" && y != "" {
		dx, dy := digits(x), digits(y)
		if dx > 0 && dy > 0 {
			nx, ny := strings.TrimLeft(x[:dx], "0"), strings.TrimLeft(y[:dy], "0")
			if c := cmp.Or(cmp.Compare(len(nx), len(ny)), cmp.Compare(nx, ny)); c != 0 {
				return c
			}
			x, y = x[dx:], y[dy:]
			continue
		}
		if x[0] != y[0] {
			return cmp.Compare(x[0], y[0])
		}
		x, y = x[1:], y[1:]
	}
	return cmp.Compare(len(x), len(y))
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// agentCall runs fn with the agent the path names, between ticks; for a
// trace, tfn with the trace's agent.
func (i *Inspector) agentCall(w http.ResponseWriter, r *http.Request, fn func(a *attached, ag agentRef) (any, error)) {
	a, err := i.world(r)
	if err != nil {
		failFor(w, err)
		return
	}
	name := r.PathValue("name")
	v, err := a.call(r.Context(), func(a *attached) (any, error) {
		ref := agentRef{}
		if a.trace != nil {
			ref.trace = a.trace.byName[name]
		} else {
			ref.live = a.w.Agent(name)
		}
		if ref.trace == nil && ref.live == nil {
			return nil, notFound{fmt.Sprintf("inspect: no agent %q in world %q", name, a.name)}
		}
		if ref.live != nil {
			a.watchAgent(name)
		}
		return fn(a, ref)
	})
	if err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, v)
}

func (i *Inspector) getAgent(w http.ResponseWriter, r *http.Request) {
	i.agentCall(w, r, func(a *attached, ag agentRef) (any, error) {
		if ag.trace != nil {
			return ag.trace.view(a.name), nil
		}
		return a.view(ag.live), nil
	})
}

func (i *Inspector) getHistory(w http.ResponseWriter, r *http.Request) {
	i.agentCall(w, r, func(a *attached, ag agentRef) (any, error) {
		if ag.trace != nil {
			return ag.trace.history(), nil
		}
		return a.watch[ag.live.Name].history(), nil
	})
}

// getRecords answers .../records?since=N: the records whose sequence
// number is above N (all that the recorder keeps without since).
func (i *Inspector) getRecords(w http.ResponseWriter, r *http.Request) {
	since, _ := strconv.Atoi(r.URL.Query().Get("since"))
	i.agentCall(w, r, func(a *attached, ag agentRef) (any, error) {
		out := []Record{}
		if ag.trace != nil {
			for _, rec := range ag.trace.records {
				if rec.Seq > since {
					out = append(out, rec)
				}
			}
			return out, nil
		}
		out, _ = records(ag.live, since)
		return out, nil
	})
}

func (i *Inspector) getWhyNot(w http.ResponseWriter, r *http.Request) {
	action := r.URL.Query().Get("action")
	i.agentCall(w, r, func(a *attached, ag agentRef) (any, error) {
		if ag.trace != nil {
			return nil, errOffline
		}
		return a.whyNot(ag.live, action)
	})
}

// control wraps a control request: refused unless Options.Control, for a
// trace, or without a JSON content type (so that another site's page
// cannot send one from the user's browser without a preflight); fn runs
// between ticks.
func (i *Inspector) control(fn func(a *attached, r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !i.opts.Control {
			failFor(w, errNoControl)
			return
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			fail(w, http.StatusUnsupportedMediaType, errors.New("inspect: control requests are JSON (Content-Type: application/json)"))
			return
		}
		a, err := i.world(r)
		if err != nil {
			failFor(w, err)
			return
		}
		if a.trace != nil {
			failFor(w, errOffline)
			return
		}
		v, err := a.call(r.Context(), func(a *attached) (any, error) { return fn(a, r) })
		if err != nil {
			failFor(w, err)
			return
		}
		writeJSON(w, v)
	}
}

func (i *Inspector) postBreakpoint(a *attached, r *http.Request) (any, error) {
	var b Breakpoint
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		return nil, fmt.Errorf("inspect: a breakpoint is JSON {kind, agent, condition}: %w", err)
	}
	return a.addBreakpoint(b)
}

func (i *Inspector) deleteBreakpoint(a *attached, r *http.Request) (any, error) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		return nil, fmt.Errorf("inspect: breakpoint id %q is not a number", r.PathValue("id"))
	}
	if err := a.removeBreakpoint(id); err != nil {
		return nil, notFound{err.Error()}
	}
	return a.statusHere(), nil
}

func (i *Inspector) postState(a *attached, r *http.Request) (any, error) {
	var body struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("inspect: a state change is JSON {name, value}: %w", err)
	}
	return a.setState(r.PathValue("name"), body.Name, body.Value)
}

func (i *Inspector) postReload(a *attached, _ *http.Request) (any, error) {
	if i.opts.Reload == nil {
		return nil, notFound{"inspect: this game gives the inspector no way to reload (Options.Reload)"}
	}
	msg, err := i.opts.Reload(a.name, a.w)
	if err != nil {
		return nil, err
	}
	return map[string]string{"message": msg}, nil
}

// agentRef is an agent of a live world or of a trace.
type agentRef struct {
	live  *engine.Agent
	trace *traceAgent
}

// Server is a running inspector server (see Listen).
type Server struct {
	// URL is the page's address, with the token when there is one.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Close stops the server at once.
func (s *Server) Close() error { return s.srv.Close() }

// Listen serves the inspector at addr ("127.0.0.1:8790"; port 0 picks a
// free one) on a goroutine of its own, until Close. An address that is not
// loopback (127.0.0.1, ::1, localhost) needs Options.Token.
func (i *Inspector) Listen(addr string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: address %q: %w", addr, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	if !loopback && i.opts.Token == "" {
		return nil, fmt.Errorf("inspect: %s is not a loopback address: set a token to serve other machines", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	s := &Server{ln: ln, srv: &http.Server{Handler: i.Handler(), ReadHeaderTimeout: 10 * time.Second}}
	s.URL = "http://" + ln.Addr().String() + "/"
	if i.opts.Token != "" {
		s.URL += "?token=" + i.opts.Token
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}
