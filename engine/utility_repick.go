package engine

import "github.com/moonmind-ai/moonmind/engine/expr"

// pickMemo remembers a re-score of an agent's running pick (see
// Agent.invalidated) that kept the running action, and the settings it
// was made with. A later re-score from a state equal to that one on every
// slot the scores read, with the same settings, would find the same; the
// agent skips it (see holds).
type pickMemo struct {
	agent   *Agent
	running *Action
	reads   uint64
	cons    []Consideration
	dom     *Domain
	mode    string
	clamp   bool
	commit  float64
	// scores is per action of dom what that re-score found; empty when
	// not known (see repick).
	scores []actionScore
}

// holds reports whether the memo stands for a re-score by agent a of
// running, after the slots in changed may have changed: the same agent,
// action and settings, and no slot the scores read changed.
func (m *pickMemo) holds(a *Agent, running *Action, changed uint64) bool {
	return changed&m.reads == 0 && m.sameSettings(a, running)
}

// sameSettings reports whether the memo is of a re-score by agent a of
// running with the settings it has now (see holds).
func (m *pickMemo) sameSettings(a *Agent, running *Action) bool {
	u := a.utility
	return m.agent == a && m.running == running && !u.Explain &&
		m.dom == u.Domain && m.mode == u.Mode && m.clamp == u.Clamp && m.commit == u.Commitment &&
		sameConsiderations(m.cons, u.Considerations)
}

// keep remembers a re-score by agent a that kept running, when every
// consideration reads state variables only (else it forgets), with the
// per-action findings of the repick that made it.
func (m *pickMemo) keep(a *Agent, running *Action) {
	u := a.utility
	reads, ok := u.pickReads()
	if !ok || u.Explain {
		m.forget()
		u.reOK = false
		return
	}
	scores := m.scores[:0]
	if u.reOK && u.Domain != nil && len(u.re) == len(u.Domain.Actions) {
		scores, u.re = u.re, scores // the buffers swap
	}
	u.reOK = false
	*m = pickMemo{agent: a, running: running, reads: reads, cons: u.Considerations, dom: u.Domain,
		mode: u.Mode, clamp: u.Clamp, commit: u.Commitment, scores: scores}
}

// forget drops the memo (keeping its buffer).
func (m *pickMemo) forget() { *m = pickMemo{scores: m.scores[:0]} }

// repick is Pick for the re-score of agent a's running pick, running,
// from st: changed is the slots that may differ from the state of the
// last re-score that kept running (the memo's, see Agent.invalidated).
// An action that reads none of them (its precondition and the inputs of
// its considerations, see pickReads) has the precondition and score it had
// then, and the memo's are taken instead of working them out again: the
// same, since every consideration reads state variables only when the
// memo is kept. What it finds per action is kept for pickMemo.keep.
func (u *UtilityPlanner) repick(a *Agent, st expr.State, running *Action, changed uint64) *Action {
	u.reOK = false
	if u.Explain || u.Domain == nil {
		next, _ := u.Pick(st, running)
		return next
	}
	acts := u.Domain.Actions
	_, pure := u.pickReads()
	m := &u.memo
	reuse := pure && len(m.scores) == len(acts) && len(u.actReads) == len(acts) && m.sameSettings(a, running)
	re := u.re[:0]
	if n := len(acts); cap(re) < n {
		buf := make([]actionScore, 2*n) // one allocation for both buffers
		re = buf[:0:n]
		if cap(m.scores) < n {
			m.scores = buf[n : n : 2*n] // still empty: the memo knows no scores
		}
	}
	t := newTally()
	for i, x := range acts {
		var r actionScore
		if reuse && changed&u.actReads[i] == 0 {
			r = m.scores[i]
		} else if r.ok = x.Pre.Eval(st); r.ok {
			r.score = u.score(x, st, false)
		}
		re = append(re, r)
		if r.ok {
			t.add(x, running, r.score)
		}
	}
	u.re, u.reOK = re, true
	next, _ := u.commit(t.best, t.bestScore, running, t.runScore, t.runOK)
	return next
}

func sameConsiderations(x, y []Consideration) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// pickReads returns the slots that Pick's scores read, as bits (see
// expr.SlotMask): every action's precondition and the inputs of its
// considerations. ok is false when a consideration may read something
// else (a Go or Lua function): its score can change while the state does
// not.
func (u *UtilityPlanner) pickReads() (reads uint64, ok bool) {
	if u.readsDom == u.Domain && u.readsDom != nil && sameConsiderations(u.readsCons, u.Considerations) {
		return u.reads, u.readsOK
	}
	ok = u.Domain != nil
	u.actReads = u.actReads[:0]
	if ok && cap(u.actReads) < len(u.Domain.Actions) {
		u.actReads = make([]uint64, 0, len(u.Domain.Actions))
	}
	if ok {
		for _, a := range u.Domain.Actions {
			r := a.Pre.ReadMask()
			cs := u.considerationsFor(a)
			for i := range cs {
				m, pure := considerationReads(&cs[i], a)
				r |= m
				ok = ok && pure
			}
			reads |= r
			u.actReads = append(u.actReads, r)
		}
	}
	u.reads, u.readsOK, u.readsCons, u.readsDom = reads, ok, u.Considerations, u.Domain
	return reads, ok
}

// considerationReads returns the slots consideration c of action a
// reads, and whether it reads nothing but those (and a's read-only data).
func considerationReads(c *Consideration, a *Action) (uint64, bool) {
	switch c.Kind {
	case ConsiderCost, ConsiderValue, ConsiderUtility, ConsiderHasTag:
		return 0, true
	case ConsiderPrecondition:
		return a.Pre.ReadMask(), true
	case ConsiderInput:
		switch {
		case c.Slot < 0:
			return 0, true // out of range: the input is NaN
		case c.Slot >= 64:
			return ^uint64(0), true
		}
		return 1 << uint(c.Slot), true
	case ConsiderCombine:
		var m uint64
		for i := range c.Of {
			sm, ok := considerationReads(&c.Of[i], a)
			if !ok {
				return 0, false
			}
			m |= sm
		}
		return m, true
	}
	return 0, false // a function
}
