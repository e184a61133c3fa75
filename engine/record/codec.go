package record

import (
	"encoding/binary"
	"math"
	"math/bits"
	"time"
)

// The flight recorder keeps its records encoded (see Recorder): a record
// is its kind byte, a mask of the optional fields it has (the bits below),
// its tick, its time unless that follows from the tick, then each field
// the mask names, in Event's order.
// Integers are varints, floats are their bits byte-reversed as a varint
// (so round numbers such as 0, 1 or 30 take one to three bytes), slices a
// length then their items, and names (agents, goals, actions,
// considerations, beliefs, peers) an index into the recorder's table of
// names, so a record of a soldier starting an action is 6 or 7
// bytes instead of an Event's 264.
const (
	recAgent = 1 << iota
	recGoal
	recAction
	recTimeFromTick // Time is (Tick-1) / Recorder.rate: no time is stored
	recReason
	recPlan
	recCost
	recExpansions
	recScore
	recScores
	recConsiderations
	recDuration
	recBelief
	recValue
	recOld
	recPeer
	recIntention
)

// maxNames is how many distinct names a recorder keeps in its table;
// further names are stored in full in each record, so a script that makes
// up a new name for every record cannot grow the table without bound.
const maxNames = 64

// encodeRecord appends e, encoded, to b and returns the result; names it
// has not seen before join r.names (up to maxNames).
func (r *Recorder) encodeRecord(b []byte, e *Event) []byte {
	mask := flag(e.Agent != "", recAgent) |
		flag(e.Goal != "", recGoal) |
		flag(e.Action != "", recAction) |
		flag(e.Plan != nil, recPlan) |
		flag(math.Float64bits(e.Cost) != 0, recCost) |
		flag(e.Expansions != 0, recExpansions) |
		flag(math.Float64bits(e.Score) != 0, recScore) |
		flag(e.Scores != nil, recScores) |
		flag(e.Reason != "", recReason) |
		flag(e.Considerations != nil, recConsiderations) |
		flag(e.Duration != 0, recDuration) |
		flag(e.Belief != "", recBelief) |
		flag(e.Value != "", recValue) |
		flag(e.Old != "", recOld) |
		flag(e.Peer != "", recPeer) |
		flag(e.Intention != 0, recIntention) |
		flag(r.timeFromTick(e), recTimeFromTick)
	b = append(b, byte(e.Kind))
	b = binary.AppendUvarint(b, mask)
	b = binary.AppendVarint(b, int64(e.Tick))
	if mask&recTimeFromTick == 0 {
		b = appendFloat(b, e.Time)
	}
	if mask&recAgent != 0 {
		b = r.appendName(b, e.Agent)
	}
	if mask&recGoal != 0 {
		b = r.appendName(b, e.Goal)
	}
	if mask&recAction != 0 {
		b = r.appendName(b, e.Action)
	}
	if mask&recPlan != 0 {
		b = binary.AppendUvarint(b, uint64(len(e.Plan)))
		for _, s := range e.Plan {
			b = r.appendName(b, s)
		}
	}
	if mask&recCost != 0 {
		b = appendFloat(b, e.Cost)
	}
	if mask&recExpansions != 0 {
		b = binary.AppendVarint(b, int64(e.Expansions))
	}
	if mask&recScore != 0 {
		b = appendFloat(b, e.Score)
	}
	if mask&recScores != 0 {
		b = binary.AppendUvarint(b, uint64(len(e.Scores)))
		for _, s := range e.Scores {
			b = r.appendName(b, s.Action)
			b = appendFloat(b, s.Score)
		}
	}
	if mask&recReason != 0 {
		b = appendText(b, e.Reason)
	}
	if mask&recConsiderations != 0 {
		b = binary.AppendUvarint(b, uint64(len(e.Considerations)))
		for _, c := range e.Considerations {
			b = r.appendName(b, c.Name)
			b = appendFloat(b, c.Input)
			b = appendFloat(b, c.Output)
			b = appendFloat(b, c.Weight)
			b = appendText(b, c.Error)
		}
	}
	if mask&recDuration != 0 {
		b = binary.AppendVarint(b, int64(e.Duration))
	}
	if mask&recBelief != 0 {
		b = r.appendName(b, e.Belief)
	}
	if mask&recValue != 0 {
		b = appendText(b, e.Value)
	}
	if mask&recOld != 0 {
		b = appendText(b, e.Old)
	}
	if mask&recPeer != 0 {
		b = r.appendName(b, e.Peer)
	}
	if mask&recIntention != 0 {
		b = binary.AppendVarint(b, int64(e.Intention))
	}
	return b
}

// timeFromTick reports whether e's time is (tick-1) / r.rate, as when the
// agent ticks at a whole rate (60 per second, 10 per second) from time 0;
// the first record that fits such a rate sets it, for good.
func (r *Recorder) timeFromTick(e *Event) bool {
	if r.rate == 0 && e.Tick > 1 && e.Time > 0 {
		rate := math.Round(float64(e.Tick-1) / e.Time)
		if rate >= 1 && rate <= 1e6 && float64(e.Tick-1)/rate == e.Time {
			r.rate = rate
		}
	}
	return r.rate > 0 && math.Float64bits(float64(e.Tick-1)/r.rate) == math.Float64bits(e.Time)
}

// flag returns bit when on is true, else 0.
func flag(on bool, bit uint64) uint64 {
	if on {
		return bit
	}
	return 0
}

// appendName appends a name as its index in r.names plus one, adding it to
// the table when there is room, or as 0 and the text.
func (r *Recorder) appendName(b []byte, s string) []byte {
	for i, n := range r.names {
		if n == s {
			return binary.AppendUvarint(b, uint64(i)+1)
		}
	}
	if len(r.names) < maxNames {
		r.names = append(r.names, s)
		return binary.AppendUvarint(b, uint64(len(r.names)))
	}
	return appendText(append(b, 0), s)
}

func appendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendFloat appends f's bits byte-reversed as a varint: the exponent and
// the high bits of the mantissa come first, so numbers with short
// mantissas are short.
func appendFloat(b []byte, f float64) []byte {
	return binary.AppendUvarint(b, bits.ReverseBytes64(math.Float64bits(f)))
}

// recordReader decodes one record that encodeRecord wrote. The record is
// trusted (the recorder wrote it), so a short read is a bug, not an input
// error.
type recordReader struct {
	r *Recorder
	b []byte
}

func (d *recordReader) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		panic("engine: corrupt flight-recorder record") // a bug in this file
	}
	d.b = d.b[n:]
	return v
}

func (d *recordReader) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		panic("engine: corrupt flight-recorder record") // a bug in this file
	}
	d.b = d.b[n:]
	return v
}

func (d *recordReader) float() float64 {
	return math.Float64frombits(bits.ReverseBytes64(d.uvarint()))
}

func (d *recordReader) text() string {
	n := d.uvarint()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *recordReader) name() string {
	if i := d.uvarint(); i > 0 {
		return d.r.names[i-1]
	}
	return d.text()
}

// decodeRecord decodes one record (b holds exactly one).
func (r *Recorder) decodeRecord(b []byte) Event {
	d := recordReader{r: r, b: b[1:]}
	e := Event{Kind: EventKind(b[0])}
	mask := d.uvarint()
	e.Tick = int(d.varint())
	if mask&recTimeFromTick != 0 {
		e.Time = float64(e.Tick-1) / r.rate
	} else {
		e.Time = d.float()
	}
	if mask&recAgent != 0 {
		e.Agent = d.name()
	}
	if mask&recGoal != 0 {
		e.Goal = d.name()
	}
	if mask&recAction != 0 {
		e.Action = d.name()
	}
	if mask&recPlan != 0 {
		e.Plan = make([]string, d.uvarint())
		for i := range e.Plan {
			e.Plan[i] = d.name()
		}
	}
	if mask&recCost != 0 {
		e.Cost = d.float()
	}
	if mask&recExpansions != 0 {
		e.Expansions = int(d.varint())
	}
	if mask&recScore != 0 {
		e.Score = d.float()
	}
	if mask&recScores != 0 {
		e.Scores = make([]ActionScore, d.uvarint())
		for i := range e.Scores {
			e.Scores[i].Action = d.name()
			e.Scores[i].Score = d.float()
		}
	}
	if mask&recReason != 0 {
		e.Reason = d.text()
	}
	if mask&recConsiderations != 0 {
		e.Considerations = make([]ConsiderationScore, d.uvarint())
		for i := range e.Considerations {
			c := &e.Considerations[i]
			c.Name = d.name()
			c.Input, c.Output, c.Weight = d.float(), d.float(), d.float()
			c.Error = d.text()
		}
	}
	if mask&recDuration != 0 {
		e.Duration = time.Duration(d.varint())
	}
	if mask&recBelief != 0 {
		e.Belief = d.name()
	}
	if mask&recValue != 0 {
		e.Value = d.text()
	}
	if mask&recOld != 0 {
		e.Old = d.text()
	}
	if mask&recPeer != 0 {
		e.Peer = d.name()
	}
	if mask&recIntention != 0 {
		e.Intention = int(d.varint())
	}
	return e
}

// recordAction returns a record's Action without decoding the rest.
func (r *Recorder) recordAction(b []byte) string {
	d := recordReader{r: r, b: b[1:]}
	mask := d.uvarint()
	if mask&recAction == 0 {
		return ""
	}
	d.varint() // tick
	if mask&recTimeFromTick == 0 {
		d.uvarint() // time
	}
	if mask&recAgent != 0 {
		d.skipName()
	}
	if mask&recGoal != 0 {
		d.skipName()
	}
	return d.name()
}

func (d *recordReader) skipName() {
	if d.uvarint() == 0 {
		d.b = d.b[d.uvarint():]
	}
}
