package engine

import "fmt"

// objectSnap is one smart object in a snapshot: what the engine keeps of
// it (not the game's Data) and the IDs of its holders among the saved
// agents.
type objectSnap struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Slots   int    `json:"slots"`
	Holders []int  `json:"holders,omitempty"`
}

// saveObjects returns the world's objects, each with its holders among
// agents; a snapshot of some agents only (SnapshotAgents) saves no
// objects, which stay in their world.
func (w *World) saveObjects(agents []*Agent) []objectSnap {
	if len(agents) != len(w.Agents) {
		return nil
	}
	out := make([]objectSnap, 0, len(w.objects))
	for _, o := range w.objects {
		s := objectSnap{Name: o.Name, Kind: o.Kind, Slots: o.Slots}
		for _, a := range o.holders {
			s.Holders = append(s.Holders, a.ID)
		}
		out = append(out, s)
	}
	return out
}

// loadObjects makes the saved objects of a whole world with their holders
// (whole), then gives every restored agent whose running step held an
// object the object of that name in w: held at once when the snapshot
// says so, else claimed again at the end of the next tick.
func (w *World) loadObjects(s *worldSnap, agents []*Agent, whole bool) error {
	byID := make(map[int]*Agent, len(agents))
	for i, a := range agents {
		byID[s.Agents[i].ID] = a
	}
	if whole {
		for _, os := range s.Objects {
			o := &Object{Name: os.Name, Kind: os.Kind, Slots: os.Slots}
			if err := w.AddObject(o); err != nil {
				return fmt.Errorf("engine: restore: %w", err)
			}
			for _, id := range os.Holders {
				a := byID[id]
				if a == nil {
					return fmt.Errorf("engine: restore: object %s: no saved agent has ID %d", os.Name, id)
				}
				o.holders = append(o.holders, a)
				a.holds = o
			}
		}
	}
	for i, a := range agents {
		name := s.Agents[i].Holds
		if name == "" || a.holds != nil {
			continue
		}
		if o := w.Object(name); o != nil {
			a.holds, a.claimNew = o, true
		}
	}
	return nil
}
