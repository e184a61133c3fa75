package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/coder/websocket"
)

// serveWS answers api/ws?world=W&agent=NAME: a WebSocket on which the
// inspector pushes, as the world ticks, a JSON object {world, agent}: the
// world's status and the agent's view (see update). An update the page has
// not taken when the next one is ready is dropped and counted; the world
// never waits for the page.
func (i *Inspector) serveWS(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a := i.named(q.Get("world"))
	if a == nil {
		fail(w, http.StatusNotFound, fmt.Errorf("inspect: no world %q", q.Get("world")))
		return
	}
	if a.trace != nil {
		failFor(w, errOffline)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept wrote the error
	}
	defer c.CloseNow()
	s := &subscriber{agent: q.Get("agent"), out: make(chan *update, 2)}
	a.subscribe(s, true)
	defer a.subscribe(s, false)
	ctx := c.CloseRead(r.Context())
	alive := time.NewTicker(time.Second)
	defer alive.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-alive.C:
			if a.detached.Load() {
				// The page reconnects, to the world attached under the name now.
				_ = c.Close(websocket.StatusGoingAway, "the world was detached")
				return
			}
		case u := <-s.out:
			b, err := json.Marshal(u)
			if err != nil {
				return
			}
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err = c.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					_ = c.Close(websocket.StatusGoingAway, "write failed")
				}
				return
			}
		}
	}
}

// subscribe adds or removes a live page; the watch count of its agent is
// kept on the world's goroutine by push.
func (a *attached) subscribe(s *subscriber, on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.subs = append(a.subs, s)
		a.nsubs.Add(1)
		return
	}
	if k := slices.Index(a.subs, s); k >= 0 {
		a.subs = slices.Delete(a.subs, k, k+1)
		a.nsubs.Add(-1)
	}
}
