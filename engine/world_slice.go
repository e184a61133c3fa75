package engine

// planQueue is the state of a world's plan budget between ticks.
type planQueue struct {
	next  int      // the ID of the agent served first next tick
	debt  int      // expansions spent over budget, taken from the next ticks' budgets
	spent int      // expansions spent in the last tick
	order []*Agent // scratch: this tick's queue
}

// PlanExpansions returns the GOAP node expansions the last Tick spent
// under the plan budget, the searches that explain a failure included
// (they are sliced like the main search, so it never exceeds PlanBudget).
// It is 0 when PlanBudget is unlimited.
func (w *World) PlanExpansions() int { return w.queue.spent }

// PlanQueue returns how many agents wait for the plan budget now (their
// jobs are open: queued, or suspended mid-search).
func (w *World) PlanQueue() int {
	n := 0
	for _, a := range w.Agents {
		if a.job.open {
			n++
		}
	}
	return n
}

// servePlans spends the tick's plan budget on the agents waiting for a
// plan. The budget is PlanBudget less any debt (what earlier ticks spent
// over it). Agents are served one at a time,
// in order of ID starting at the queue's cursor and wrapping around; each
// is served until its job ends or the budget is spent. The cursor then
// moves past the last agent whose job ended, so a suspended search goes
// on first next tick and every job is reached in turn: at most one search
// is suspended at a time. It runs on the caller's goroutine, so the order
// and the plans are the same with any number of workers.
func (w *World) servePlans() {
	q := &w.queue
	q.spent = 0
	if w.PlanBudget <= 0 {
		q.debt = 0
		return
	}
	q.order = q.order[:0]
	for pass := 0; pass < 2; pass++ {
		for _, a := range w.Agents {
			if a.job.open && (a.ID >= q.next) == (pass == 0) {
				q.order = append(q.order, a)
			}
		}
	}
	spent, left := 0, w.PlanBudget-q.debt
	for i, a := range q.order {
		if left <= 0 {
			break
		}
		s, done := a.serveJob(left, i+1, len(q.order))
		spent += s
		left -= s
		if !done {
			q.next = a.ID
			break
		}
		q.next = a.ID + 1
	}
	clear(q.order) // hold no agent past the tick
	q.spent = spent
	q.debt = max(0, q.debt+spent-w.PlanBudget)
}
