package cluster

// testHooks lets a test stop a shard at one step of a hand-off, as a
// crash there would. Production shards have none.
type testHooks struct {
	// crashAt is asked at each step with the step's name, the zone and the
	// agent; true kills the shard there.
	crashAt func(step, zone, agent string) bool
	// lose is asked when a hand-off reaches its target zone, before the
	// commit; true drops that delivery, as a network that lost it would.
	lose func(zone, agent string) bool
	// replyLost is asked when a hand-off's commit succeeded; true makes
	// the target act as if the commit's reply never came (a server that
	// restarted just then): it neither adopts nor confirms.
	replyLost func(zone, agent string) bool
	// ownerReplyLost is asked when the shard's own write of an agent's
	// owner entry for a spawn or a take-back succeeded; true makes the
	// shard act as if the write's reply never came.
	ownerReplyLost func(agent string) bool
	// beforeFinal is called by a draining zone just before it checks its
	// lease for its final snapshot.
	beforeFinal func(z *Zone)
	// beforeDrain is called when the shard's drain begins.
	beforeDrain func(s *Shard)
}

// hook reports whether the shard is dead, killing it first when the test
// hooks ask for a crash at this step.
func (s *Shard) hook(step, zone, agent string) bool {
	if s.hooks != nil && s.hooks.crashAt != nil && s.hooks.crashAt(step, zone, agent) {
		s.Kill()
	}
	return s.dead.Load()
}
